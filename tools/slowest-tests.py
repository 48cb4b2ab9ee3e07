#!/usr/bin/env python3
"""Prints the slowest test classes of the last `mvn verify`, read from the Surefire and Failsafe XML reports.

`make test` runs it at its end (whatever the outcome), so every run shows where the suite's time goes.
Usage: tools/slowest-tests.py [COUNT] (default 10), from the repository's root.
"""
import glob
import sys
import xml.etree.ElementTree as ElementTree


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    classes = []
    for report in glob.glob("*/target/surefire-reports/TEST-*.xml") + glob.glob("*/target/failsafe-reports/TEST-*.xml"):
        try:
            suite = ElementTree.parse(report).getroot()
        except ElementTree.ParseError:
            continue  # a report being written by a run that was stopped
        module = report.split("/", 1)[0]
        classes.append((float(suite.get("time", "0").replace(",", "")), module, suite.get("name", report),
                        int(suite.get("tests", "0"))))
    if not classes:
        print("slowest test classes: no reports found (run from the repository's root after mvn verify)")
        return 0
    total = sum(c[0] for c in classes)
    print(f"slowest test classes ({len(classes)} classes, {total / 60:.1f} min of test time in all):")
    for seconds, module, name, tests in sorted(classes, reverse=True)[:count]:
        print(f"  {seconds:8.1f} s  {module:16} {name} ({tests} tests)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
