"""Benchmarks behind `manage.py bench`: each module times one part of the app against the bare
work it needs."""
