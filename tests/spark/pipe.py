"""Runs lazydoku as the per-record step of Spark's RDD.pipe, in local mode.

Usage: python3 pipe.py LAZYDOKU INPUT PARTITIONS

Each partition of INPUT's lines is piped through `LAZYDOKU solve -q -`, and
the collected answers, in partition order, are printed one a line. The test
in tests/suite/cli.rs compares them with lazydoku's own output.
"""

import shlex
import sys

from pyspark.sql import SparkSession


def main():
    binary, path, partitions = sys.argv[1], sys.argv[2], int(sys.argv[3])
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("lazydoku-pipe")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        rdd = spark.sparkContext.parallelize(lines, partitions)
        # checkCode: a failing step fails the job instead of losing records.
        answers = rdd.pipe(f"{shlex.quote(binary)} solve -q -", checkCode=True).collect()
        sys.stdout.write("".join(a + "\n" for a in answers))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
