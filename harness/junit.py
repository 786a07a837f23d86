"""A JUnit XML file of a CLI run, for CI systems that show test results (same shape as pytest's)."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

from castrules.harness.results import Result, Status
from castrules.harness.textsafe import safe_tree


def write_junit(results: list[Result], path: Path, engine_name: str) -> None:
    suite = ET.Element("testsuite", name=f"castrules[{engine_name}]", tests=str(len(results)),
                       failures=str(sum(r.status in (Status.FAIL, Status.UNEXPECTED_PASS) for r in results)),
                       errors=str(sum(r.status in (Status.ERROR, Status.TIMEOUT, Status.NOT_RUN) for r in results)),
                       skipped=str(sum(r.status in (Status.UNSUPPORTED, Status.SKIPPED, Status.KNOWN_FAILURE) for r in results)),
                       time=f"{sum(r.duration for r in results):.3f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=r.file.replace("/", ".").rsplit(".", 1)[0] or "castrules",
                             name=r.case_id, time=f"{r.duration:.6f}")
        text = "\n".join([*(str(m) for m in r.mismatches), r.message]).strip()
        if r.status in (Status.FAIL, Status.UNEXPECTED_PASS):
            ET.SubElement(case, "failure", message=(text.splitlines() or [r.status.value])[0]).text = text
        elif r.status in (Status.ERROR, Status.TIMEOUT, Status.NOT_RUN):  # a case not run is no success
            ET.SubElement(case, "error", message=(text.splitlines() or [r.status.value])[0]).text = "\n".join([text, r.diagnostics]).strip()
        elif r.status in (Status.UNSUPPORTED, Status.SKIPPED, Status.KNOWN_FAILURE):
            ET.SubElement(case, "skipped", message=f"{r.status.value}: {(text.splitlines() or [''])[0]}")
    path.parent.mkdir(parents=True, exist_ok=True)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.ElementTree(safe_tree(root)).write(path, encoding="utf-8", xml_declaration=True)  # whatever the engine sent
