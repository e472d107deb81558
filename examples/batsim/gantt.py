"""Opens a Batsim job table (slasim's _jobs.csv) with evalys and draws a Gantt chart.

    python examples/batsim/gantt.py jobs.csv gantt.png [--first N]

evalys reads Batsim's columns and ignores slasim's extra ones (slasim_*).
Rejected jobs (no allocation) are left out of the chart. With --first N only
the first N jobs that ran are drawn (a whole log makes an unreadable chart).
"""

import argparse
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
from evalys.jobset import JobSet  # noqa: E402
from evalys.visu.core import SimpleLayout  # noqa: E402
from evalys.visu.gantt import GanttVisualization  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs_csv")
    parser.add_argument("png")
    parser.add_argument("--first", type=int, default=None)
    args = parser.parse_args()

    table = JobSet.from_csv(args.jobs_csv)
    ran = table.df[table.df["final_state"] != "REJECTED"]
    if args.first is not None:
        ran = ran.head(args.first)
    if ran.empty:
        sys.exit(f"{args.jobs_csv}: no job ran")
    js = JobSet(ran)
    # evalys' plot_gantt shows its figure; the same layout saved to a file instead.
    title = f"{args.jobs_csv}: {len(ran)} jobs"
    layout = SimpleLayout(wtitle=title)
    layout.fig.set_size_inches(12, 5)
    plot = layout.inject(GanttVisualization, spskey="all", title=title)
    plot.build(js)
    layout.fig.savefig(args.png, dpi=100)
    print(
        f"{args.png}: {len(ran)} jobs on {js.MaxProcs} resources, "
        f"makespan {js.df['finish_time'].max() - js.df['submission_time'].min():.0f} s, "
        f"mean wait {js.df['waiting_time'].mean():.1f} s"
    )


if __name__ == "__main__":
    main()
