"""Printable sheets: Django templates rendered to PDF with WeasyPrint (club.pdf.render)."""
