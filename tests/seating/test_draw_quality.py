"""Over ten weeks of a club of 40, the app's draw (last four nights as history) seats far fewer
repeated table-mates than a plain random draw, and no pair meets more than twice."""

from __future__ import annotations

from club.operations.bench.draw import bench_draw, report


def test_the_draw_repeats_fewer_table_mates_than_a_random_draw():
    drawn, plain = bench_draw(players=40, weeks=10, seeds=2)
    assert drawn.method == "the app's draw" and plain.method == "a plain random draw"
    for ours, theirs in zip(drawn.repeats, plain.repeats, strict=True):
        assert ours < theirs * 0.7
    assert max(drawn.most_met) <= 2 < max(plain.most_met)
    assert "the app's draw" in "\n".join(report([drawn, plain]))
