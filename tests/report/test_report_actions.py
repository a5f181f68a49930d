"""make_report / verify_report / record_signing on the demo case's finished recount."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from pathlib import Path

import pytest

from recount_desk import cli, store
from recount_desk.actions import demo
from recount_desk.actions import report as report_actions
from recount_desk.actions.case import Case, open_case
from recount_desk.core.report_model import Ballots, fingerprint


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.recount"
    demo.build_demo_case(path).close()
    return path


@pytest.fixture
def case(demo_file: Path, tmp_path: Path) -> Case:
    copy = tmp_path / "case.recount"
    copy.write_bytes(demo_file.read_bytes())
    c = open_case(copy, actor="Nora Ashby")
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
    assert data.declaration.elected == ("Lavar Christensen",)
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
    out.write_bytes(blob[:-200] + b"%" * 10 + blob[-190:])
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


def test_verify_does_not_call_the_case_changed_for_a_pdf_of_an_earlier_format(
        case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recount_desk.core import report_model

    out = tmp_path / "report.pdf"
    with monkeypatch.context() as m:  # made by an earlier version of the program
        m.setattr(report_model, "CANONICAL_VERSION", "recount-desk-report/3")
        m.setattr(report_actions, "CANONICAL_VERSION", "recount-desk-report/3")
        report_actions.make_report(case, contest(case), out)
    check = report_actions.verify_report(case, out)
    assert not check.ok
    assert "earlier version of Recount Desk" in check.message
    assert "recount-desk-report/3" in check.message
    assert "changed since" not in check.message


def test_signing_then_signed_original_then_numbered_reprints(case: Case,
                                                             tmp_path: Path) -> None:
    import io

    import pypdf

    cid = contest(case)
    draft = tmp_path / "draft.pdf"
    res = report_actions.make_report(case, cid, draft)
    assert not res.signed and not res.official and res.reprint == 0
    fp = report_actions.record_signing(case, cid, datetime(2016, 12, 6, 11, 0),
                                       ["Evelyn Marsh", "Priya Castillo"])
    original = tmp_path / "original.pdf"
    first = report_actions.make_report(case, cid, original,
                                       now=lambda: datetime(2016, 12, 6, 12, 0))
    assert first.signed and first.official and first.reprint == 0 and first.fingerprint == fp

    def text(p: Path) -> str:
        reader = pypdf.PdfReader(io.BytesIO(p.read_bytes()))
        return " ".join(" ".join((pg.extract_text() or "").split()) for pg in reader.pages)

    body = text(original)
    assert body.startswith("Official Recount Report") and "Signed original" in body
    assert "/s/ Evelyn Marsh, December 6, 2016, Salt Lake County Government Center, Council Chambers" in body
    assert "(did not sign)" in body  # members present who did not sign
    reprint = tmp_path / "reprint.pdf"
    res = report_actions.make_report(case, cid, reprint,
                                     now=lambda: datetime(2017, 1, 3, 15, 5))
    assert res.reprint == 1 and res.fingerprint == fp
    assert "Reprint 1 of the signed report — generated at January 3, 2017, 3:05 p.m." in text(
        reprint)
    assert report_actions.verify_report(case, reprint).ok
    assert report_actions.verify_report(case, original).ok
    check = report_actions.verify_report(case, draft)
    assert check.ok and "the draft" in check.message
    second = report_actions.make_report(case, cid, tmp_path / "r2.pdf",
                                        now=lambda: datetime(2017, 1, 4, 9, 0))
    assert second.reprint == 2


def test_signing_is_refused_when_the_dates_are_out_of_order(case: Case) -> None:
    cid = contest(case)
    with pytest.raises(report_actions.ReportNotReady, match="report signed"):
        report_actions.record_signing(case, cid, datetime(2016, 12, 5, 9, 0), ["Evelyn Marsh"])


def test_report_data_has_ballot_accounting_explanations_and_envelopes(case: Case) -> None:
    """The demo (Salt Lake 2016 HD 32): loaded units, two envelopes that stay rejected."""
    data = report_actions.build_report_data(case, contest(case))
    assert len(data.units) == 39
    assert data.loads and "SOVC - Salt Lake Recount.xlsx" in data.loads[0]
    assert all(not u.source for u in data.units)  # every unit loaded from the statement
    # The statement gives no ballots, write-ins, over- or under-votes: unknown, never 0.
    assert data.recount_ballots() == Ballots(None, None, None, None)
    assert "by Dana Whitlock" in data.loads[0] and "December 5, 2016" in data.loads[0]
    assert data.absentee is not None
    ids = [e.envelope_id for e in data.absentee.envelopes]
    assert ids == ["SL-2016-104417", "SL-2016-108230"]
    assert all(e.decided_by == "Helen Strand" for e in data.absentee.envelopes)
    assert [w.name for w in data.witnesses] == ["Ruth Kessler", "Alan Pryce"]
    assert data.witnesses[0].designated_at == datetime(2016, 12, 1, 9, 0)
    assert data.costs is not None and len(data.costs.items) == 3
    assert data.requests[0].checks and all(c.ok for c in data.requests[0].checks)
    # stamps recorded in UTC come back as Utah time: the recount began 8:30 a.m. local
    assert data.started_at is not None and data.started_at.hour == 8
    assert not data.portion  # State House 32 lay wholly within Salt Lake County


def test_verify_reads_the_fingerprint_from_a_resaved_pdf(case: Case, tmp_path: Path) -> None:
    import pypdf

    out = tmp_path / "report.pdf"
    report_actions.make_report(case, contest(case), out)
    writer = pypdf.PdfWriter(clone_from=str(out))
    resaved = tmp_path / "resaved.pdf"
    with open(resaved, "wb") as f:
        writer.write(f)
    assert resaved.read_bytes() != out.read_bytes()
    check = report_actions.verify_report(case, resaved)
    assert not check.ok
    assert "not a report of this program" not in check.message
    assert "re-saved by another program" in check.message


def test_verify_accepts_a_recorded_pdf_when_todays_rendering_differs(
        case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "report.pdf"
    report_actions.make_report(case, contest(case), out)
    real = report_actions.render
    monkeypatch.setattr(report_actions, "render",
                        lambda r, fp=None: real(r, fp) + b"\n% a newer program\n")
    check = report_actions.verify_report(case, out)
    assert check.ok, check.message
    assert "renders the same data differently" in check.message


def test_appendix_report_checked_against_an_equal_copy_of_the_case(
        case: Case, tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    copy = tmp_path / "copy.recount"
    copy.write_bytes(case.path.read_bytes())  # the copy is made before the report
    report_actions.make_report(case, contest(case), out, appendix=True)
    with open_case(copy, actor="Nora Ashby") as other:
        check = report_actions.verify_report(other, out)
    assert check.ok, check.message
    assert "altered" not in check.message and "copy of this case" in check.message


def test_verify_code_of_a_printed_copy(case: Case, tmp_path: Path) -> None:
    res = report_actions.make_report(case, contest(case), tmp_path / "r.pdf")
    short = "-".join(res.code.split("-")[:2])
    check = report_actions.verify_code(case, short.lower())
    assert check.ok and res.code in check.message
    assert not report_actions.verify_code(case, "AAAA-AAAA").ok
    assert not report_actions.verify_code(case, "AB").ok


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
    assert cli.main(["--as", "Nora Ashby", "report", str(path), "--contest", str(cid), "-o", str(out)]) == 0
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


def test_cli_verify_code(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, cid = case.path, contest(case)
    case.close()
    out = tmp_path / "cli.pdf"
    assert cli.main(["--as", "Nora Ashby", "report", str(path), "--contest", str(cid), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "DRAFT" in said
    code = said.split("fingerprint ")[1].split()[0]
    assert cli.main(["verify", str(path), "--code", code[:9]]) == 0
    assert "OK" in capsys.readouterr().out
    assert cli.main(["verify", str(path), "--code", "AAAA-AAAA"]) == 1


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


def test_a_county_portions_report_restates_the_request_check_as_decided_on_the_whole_race(
        tmp_path: Path) -> None:
    """Grand 2018 holds only its part of State House 69: a request recorded on it (with the
    officer's reason) is never reported as "met" on Grand's 843 to 841 (issue #20)."""
    from recount_desk.actions import recount as rc
    from recount_desk.actions.contests import overview, record_request, set_contest_settings
    from recount_desk.actions.demo_portion import build_portion_demo_case
    from recount_desk.core.model import Scope
    from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet
    from recount_desk.core.rules import Office, Requester

    case, _combined = build_portion_demo_case(tmp_path / "grand.recount")
    with case:
        cid = next(r.id for r in overview(case)
                   if r.check.totals.contest.key.title == "State House"
                   and r.check.totals.contest.key.district == "69")
        # Recorded while the officer had set the race to a county race (Grand's 843 to 841
        # is inside the margin), then set back to multicounty: the recorded finding is the
        # county slice's, and the report must not repeat it.
        c = next(r for r in overview(case) if r.id == cid).check.totals.contest
        settings = {"seats": c.seats, "voting_method": c.voting_method,
                    "pass_rule": c.pass_rule}
        set_contest_settings(case, cid, scope=Scope.COUNTY, **settings)
        record_request(case, cid, requester=Requester.CANDIDATE, candidate="Christine Watkins",
                       voters=[], filed_at=datetime(2018, 11, 21, 14, 30),
                       filed_with=Office.COUNTY_CLERK)
        set_contest_settings(case, cid, scope=Scope.MULTICOUNTY, **settings)
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION,
                         entry_mode=EntryMode.SINGLE)
        for row in rc.variance(case, cid).rows:  # recounted as canvassed
            votes = dict(row.canvass)
            total = sum(votes.values())
            rc.enter_tally(case, cid, row.unit, entry=1, officer="demo",
                           sheet=TallySheet(total, votes, 0, 0, 0),
                           warning_note="as canvassed")
        rc.convene_board(case, cid, convened_at=datetime(2018, 11, 28, 10, 0),
                         place="Grand County Courthouse", body_size=7)
        data = report_actions.build_report_data(case, cid)
        assert data.portion
        checks = data.requests[0].checks
        assert not all(c.ok for c in checks)
        texts = " ".join(c.text for c in checks)
        assert "whole race" in texts and "within the recount margin of" not in texts


def test_a_loaded_recount_is_not_reported_as_keyed_twice(case: Case, tmp_path: Path) -> None:
    from pdf_reading import pages_text

    out = tmp_path / "report.pdf"
    report_actions.make_report(case, contest(case), out)
    text = " ".join(pages_text(out.read_bytes()))
    assert "39 of 39 units were loaded from the re-tabulated statement" in text
    assert "Loaded from the re-tabulated statement (see Source): no tally sheet was keyed" in text
    assert "two entries of every" not in text


def test_a_demo_left_by_an_earlier_version_is_built_again(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The user's demo copy is this version's demo: one built with other people (an earlier
    version's election officer) is made again, not opened with a roster nobody is on."""
    from recount_desk.actions import demo
    from recount_desk.core.model import Election

    spec = demo.demo_spec()
    old = dataclasses.replace(spec, election=dataclasses.replace(
        spec.election, officer="Demo County Clerk"))
    monkeypatch.setattr(demo, "demo_spec", lambda: old)
    with demo.open_demo_case() as case:
        assert case.roster.election_officer.name == "Demo County Clerk"
    monkeypatch.setattr(demo, "demo_spec", lambda: spec)
    with demo.open_demo_case() as case:
        assert case.roster.election_officer.name == spec.election.officer
        assert isinstance(case.election, Election)


def test_the_demo_report_from_the_command_line_again_and_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`report --demo` is made by the demo's election officer (its roster has three people,
    so opening it names nobody): the second run, on the demo built by the first, works too;
    --as names another person of its roster, and a name not on it is refused."""
    out = tmp_path / "demo.pdf"
    for _ in range(2):
        assert cli.main(["report", "--demo", "-o", str(out)]) == 0
        assert "Wrote" in capsys.readouterr().out
    assert cli.main(["--as", "Dana Whitlock", "report", "--demo", "-o", str(out)]) == 0
    assert cli.main(["--as", "Mickey Mouse", "report", "--demo", "-o", str(out)]) != 0
    assert "not on this case's roster" in capsys.readouterr().err
