"""make_report / verify_report / record_signing on the demo case's finished recount."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from recount_desk import cli, store
from recount_desk.actions import demo
from recount_desk.actions import report as report_actions
from recount_desk.actions.case import Case, open_case
from recount_desk.core.report_model import fingerprint


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.recount"
    demo.build_demo_case(path).close()
    return path


@pytest.fixture
def case(demo_file: Path, tmp_path: Path) -> Case:
    copy = tmp_path / "case.recount"
    copy.write_bytes(demo_file.read_bytes())
    c = open_case(copy, actor="clerk")
    yield c
    c.close()


def contest(case: Case) -> int:
    cid = report_actions.default_contest(case, demo=True)
    assert cid is not None
    return cid


def test_report_data_comes_from_the_case(case: Case) -> None:
    data = report_actions.build_report_data(case, contest(case))
    assert data.board.title == "Board of Salt Lake County Canvassers"
    assert [c.name for c in data.choices] == ["Suzanne Harrison", "Lavar Christensen"]
    assert len(data.units) == 39
    assert data.recount_totals() == (8536, 8541)
    assert data.declaration.winners == ("Lavar Christensen",)
    assert data.requests[0].requester == "Suzanne Harrison, candidate"
    assert data.requests[0].filed_with == "the county clerk"
    assert data.loads and "SHA-256 e1512f36d0324818" in data.loads[0]


def test_make_report_writes_the_pdf_and_records_it(case: Case, tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    res = report_actions.make_report(case, contest(case), out)
    assert out.read_bytes()[:5] == b"%PDF-"
    assert res.fingerprint == fingerprint(report_actions.build_report_data(case, contest(case)))
    last = store.last_entry(case.conn)
    assert last is not None and last.action == "report generated"
    data = json.loads(last.payload)["data"]
    assert data["fingerprint"] == res.fingerprint and data["reprint"] == 0
    assert data["contest_id"] == contest(case)


def test_same_case_gives_identical_report_bytes(case: Case, tmp_path: Path) -> None:
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    report_actions.make_report(case, contest(case), a)
    report_actions.make_report(case, contest(case), b)
    assert a.read_bytes() == b.read_bytes()


def test_verify_accepts_the_report_it_made(case: Case, tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    report_actions.make_report(case, contest(case), out, appendix=True)
    check = report_actions.verify_report(case, out)
    assert check.ok, check.message


def test_verify_rejects_an_altered_pdf(case: Case, tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    report_actions.make_report(case, contest(case), out)
    blob = out.read_bytes()
    out.write_bytes(blob.replace(b"(Tim Glenn)", b"(Tim Glenm)", 1) if b"(Tim Glenn)" in blob
                    else blob[:-200] + b"%" * 10 + blob[-190:])
    check = report_actions.verify_report(case, out)
    assert not check.ok
    assert "altered" in check.message


def test_verify_says_when_the_case_changed_since(case: Case, tmp_path: Path) -> None:
    from recount_desk.actions import recount as recount_actions

    out = tmp_path / "report.pdf"
    cid = contest(case)
    report_actions.make_report(case, cid, out)
    recount_actions.add_witness(case, cid, name="Late Witness", designated_by="Lavar Christensen",
                                side="Lavar Christensen",
                                attended_from=datetime(2016, 12, 6, 9, 0))
    check = report_actions.verify_report(case, out)
    assert not check.ok
    assert "changed since" in check.message


def test_signing_locks_and_later_copies_are_reprints(case: Case, tmp_path: Path) -> None:
    cid = contest(case)
    first = tmp_path / "signed.pdf"
    report_actions.make_report(case, cid, first)
    fp = report_actions.record_signing(case, cid, datetime(2018, 11, 30, 11, 0),
                                       ["Evelyn Marsh", "Priya Castillo"])
    reprint = tmp_path / "reprint.pdf"
    res = report_actions.make_report(case, cid, reprint,
                                     now=lambda: datetime(2019, 1, 3, 15, 5))
    assert res.reprint == 1 and res.fingerprint == fp
    import io

    import pypdf
    text = pypdf.PdfReader(io.BytesIO(reprint.read_bytes())).pages[0].extract_text()
    assert "Reprint 1 — generated at January 3, 2019, 3:05 p.m." in " ".join(text.split())
    assert report_actions.verify_report(case, reprint).ok
    assert report_actions.verify_report(case, first).ok  # the signed copy still matches
    second = report_actions.make_report(case, cid, tmp_path / "r2.pdf",
                                        now=lambda: datetime(2019, 1, 4, 9, 0))
    assert second.reprint == 2


def test_reprint_before_signing_is_refused(case: Case, tmp_path: Path) -> None:
    with pytest.raises(report_actions.ReportNotReady, match="not been signed"):
        report_actions.make_report(case, contest(case), tmp_path / "x.pdf", reprint=True)


def test_contest_without_recount_is_not_ready(case: Case, tmp_path: Path) -> None:
    other = next(c for c in report_actions.repo.contests(case.conn)
                 if c.id != contest(case))
    with pytest.raises(report_actions.ReportNotReady, match="No recount"):
        report_actions.make_report(case, other.id, tmp_path / "x.pdf")


def test_cli_report_and_verify(case: Case, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = case.path
    cid = contest(case)
    case.close()
    out = tmp_path / "cli.pdf"
    assert cli.main(["report", str(path), "--contest", str(cid), "-o", str(out)]) == 0
    assert "fingerprint" in capsys.readouterr().out
    assert cli.main(["verify", str(path), "--report", str(out)]) == 0
    assert "demo" not in str(out)
    out.write_bytes(out.read_bytes() + b"\n% tampered\n")
    assert cli.main(["verify", str(path), "--report", str(out)]) == 1
    assert "NOT OK" in capsys.readouterr().out


def test_cli_report_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo.pdf"
    assert cli.main(["report", "--demo", "-o", str(out)]) == 0
    assert cli.main(["verify", "--demo", "--report", str(out)]) == 0
    assert capsys.readouterr().out.count("OK") >= 2


def test_a_tampered_case_gives_no_official_report(tmp_path: Path) -> None:
    import sqlite3

    from recount_desk.actions.case import open_case
    from recount_desk.actions.demo import open_demo_case
    from recount_desk.actions.report import ReportNotReady, make_report

    with open_demo_case() as case:
        path = case.path
        cid = next(r[0] for r in case.conn.execute("SELECT contest_id FROM recount"))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE choice SET canvass_total = canvass_total + 5 WHERE id = 1")
    conn.commit()
    conn.close()
    with open_case(path) as case, pytest.raises(ReportNotReady, match="does not match"):
        make_report(case, cid, tmp_path / "r.pdf")
    assert not (tmp_path / "r.pdf").exists()
