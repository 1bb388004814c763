"""What a run must prove, checked against the database afterwards (Django set up).

- every acknowledged move (an answer received for its message id) is in the move log
  exactly once, at the version the answer carried; a refused one is not in it at all;
  no message id is ever in it twice;
- every seat's score, mistakes, hints, progress, status, board and place equal a replay
  of the room's move log through the engine (games/engines/race.py), and finish times
  match the log's clock (and the client's);
- every update reached every client connected when it happened;
- each client's last rendered state equals the database;
- no HTTP 5xx, no traceback sent to a client, no socket closed by an error (outside the
  fault's window), no room left unfinished.
"""

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .common import pct

BOARD_KINDS = {"enter", "note", "hint"}


@dataclass
class Report:
    counts: dict = field(default_factory=dict)
    problems: dict = field(default_factory=lambda: defaultdict(list))
    figures: dict = field(default_factory=dict)

    def problem(self, key, detail):
        self.problems[key].append(detail)

    @property
    def ok(self):
        return not any(self.problems.values())

    def text(self, limit=5):
        lines = [f"  {k}: {v}" for k, v in self.figures.items()]
        lines += [f"  {k}: {v}" for k, v in self.counts.items()]
        for key, items in self.problems.items():
            if items:
                lines.append(f"  PROBLEM {key}: {len(items)}")
                lines += [f"      {str(item)[:400]}" for item in items[:limit]]
        return "\n".join(lines)


def verify(run, logs=(), expect_fault=False, clock_tolerance=2.0, fanout_margin=5.0, strict=False) -> Report:
    """`expect_fault`: closes, failed connects and server log errors inside the fault's
    window are not counted. `strict` (a fault the sockets must live through): closes,
    failed connects and any unhandled exception in the server log (a 500 or a 1011) count
    anyway, and an update missed inside the window counts as delivered when a later frame
    of the same connection (the full state pushed once the fault is over) shows it."""
    from django.conf import settings

    from games.engines import race
    from rooms.models import Room, RoomEvent, RoomResult, Seat

    report = Report()
    stats = run.stats
    codes = run.codes
    rooms = {room.code: room for room in Room.objects.filter(code__in=codes).select_related("puzzle")}
    events = defaultdict(list)
    for event in RoomEvent.objects.filter(room__code__in=codes).select_related("seat__player", "room").order_by("id"):
        events[event.room.code].append(event)
    seats = defaultdict(list)
    for seat in Seat.objects.filter(room__code__in=codes).select_related("player").order_by("id"):
        seats[seat.room_id].append(seat)

    # --- rooms and the run ------------------------------------------------------------------
    for failure in run.failures:
        report.problem("client failures", failure)
    unfinished = [code for code in codes if rooms.get(code) is None or rooms[code].state != "finished"]
    for code in unfinished:
        report.problem("rooms not finished", f"{code}: {rooms[code].state if code in rooms else 'missing'}")
    planned = sum(len(r) for r in run.plans)
    report.counts["showdowns finished"] = f"{len(codes) - len(unfinished)} of {planned}"

    # --- message ids: acknowledged exactly once ----------------------------------------------
    by_mid = defaultdict(list)
    for code in codes:
        for event in events[code]:
            if event.message_id:
                by_mid[event.message_id].append(event)
    # (player, cell, digit) of every logged entry: a resync that shows a cell filled may show
    # an earlier move of the same cell whose answer was lost too (the client then picked
    # that cell again from its stale view); its re-send is refused, and nothing was lost.
    entries = {
        (event.seat.player.display_name, str(event.data.get("cell")), str(event.data.get("digit")))
        for code in codes
        for event in events[code]
        if event.seat is not None and event.kind == "enter"
    }

    def same_entry_logged(name, action) -> bool:
        return (name, str(action.get("cell")), str(action.get("digit"))) in entries

    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    for player in run.players:
        for mid, action in player.sent.items():
            logged = by_mid.get(mid, [])
            if len(logged) > 1:
                report.problem("message ids applied more than once", f"{player.name} {mid} x{len(logged)}")
            answer = player.outcomes.get(mid)
            if answer is None:
                if mid in player.applied_unacked and action.get("mode") != "note":
                    counts["applied, answer lost (seen in resync)"] += 1
                    if len(logged) != 1 and not same_entry_logged(player.name, action):
                        report.problem("resync showed a move the log lacks", f"{player.name} {mid} {action}")
                else:
                    counts["never answered (fate unknown to the client)"] += 1
                continue
            if answer[0] == "applied" and action.get("mode") == "note":
                counts["pencil marks (kept out of the log)"] += 1
                if logged:
                    report.problem("pencil marks found in the log", f"{player.name} {mid} {action}")
            elif answer[0] == "applied":
                counts["acknowledged"] += 1
                if len(logged) != 1:
                    report.problem(
                        "acknowledged moves not in the log exactly once",
                        f"{player.name} {mid} {action} logged {len(logged)}x",
                    )
                    continue
                event = logged[0]
                if event.version != answer[1]:
                    report.problem(
                        "answer version differs from the log", f"{mid}: answered v{answer[1]}, logged v{event.version}"
                    )
                if event.seat is None or event.seat.player.display_name != player.name:
                    report.problem("move logged for another seat", f"{mid} {player.name}")
            else:
                counts[f"refused ({answer[0]})"] += 1
                refusals[answer[1] or "(no message)"] += 1
                if logged:
                    report.problem("refused moves found in the log", f"{player.name} {mid} {answer}")
                if not answer[1] or len(answer[1]) < 8:
                    report.problem("refusals without a clear message", f"{player.name} {mid} {answer}")
    report.counts["moves"] = dict(counts)
    if refusals:  # which messages: a run answered "try again" throughout says why here
        report.counts["refusals by message"] = dict(refusals.most_common(5))

    # --- replay every room's log through the engine -----------------------------------------
    max_drift = 0.0
    for code in codes:
        room = rooms.get(code)
        if room is None or room.puzzle is None or room.starts_at is None:
            continue
        rules = race.Rules.from_dict(room.rules)
        solution = room.puzzle.solution_tuple
        room_seats = seats[room.pk]
        boards = {s.pk: race.Board.new(room.puzzle.givens_tuple) for s in room_seats if s.state}
        finished_at = {}
        for event in events[code]:
            if event.seat_id is None or event.seat_id not in boards:
                continue
            board = boards[event.seat_id]
            try:
                if event.kind == "enter":
                    board, outcome = race.enter(board, rules, solution, event.data["cell"], event.data["digit"])
                elif event.kind == "note":
                    board, outcome = race.toggle_note(board, rules, event.data["cell"], event.data["digit"])
                elif event.kind == "hint":
                    board, outcome = race.hint(board, rules, solution, event.data.get("cell"))
                elif event.kind in ("leave", "forfeit"):
                    board, outcome = race.leave(board), None
                else:
                    continue
            except race.MoveError as error:
                report.problem("log does not replay", f"{code} v{event.version} {event.kind} {event.data}: {error}")
                continue
            if outcome is not None and event.data.get("outcome") not in (None, outcome.kind):
                report.problem("replayed outcome differs", f"{code} v{event.version}: {event.data} vs {outcome.kind}")
            if board.status is race.Status.FINISHED and boards[event.seat_id].status is not race.Status.FINISHED:
                finished_at[event.seat_id] = (event.created_at - room.starts_at).total_seconds()
            boards[event.seat_id] = board
        rows = []
        for seat in room_seats:
            if seat.pk not in boards:
                continue
            board = boards[seat.pk]
            stored = (
                seat.score,
                seat.mistakes,
                seat.state.get("hints"),
                seat.progress,
                seat.status,
                seat.state.get("cells"),
                sorted(seat.state.get("hinted", [])),
            )
            replayed = (
                board.score,
                board.mistakes,
                board.hints,
                board.progress,
                str(board.status),
                "".join(map(str, board.cells)),
                sorted(board.hinted),
            )
            if stored != replayed:
                report.problem(
                    "stored seat differs from the replayed log",
                    f"{code} {seat.player.display_name}: stored {stored[:5]} replayed {replayed[:5]}",
                )
            if seat.pk in finished_at:
                drift = abs((seat.finish_seconds or 0) - finished_at[seat.pk])
                max_drift = max(max_drift, drift)
                if seat.finish_seconds is None or drift > clock_tolerance:
                    report.problem(
                        "finish time differs from the log's clock",
                        f"{code} {seat.player.display_name}: {seat.finish_seconds} vs {finished_at[seat.pk]:.2f}",
                    )
            rows.append(
                race.Standing(
                    seat.pk, board.status, board.progress, board.mistakes, board.hints, board.score, seat.finish_seconds
                )
            )
        if room.state == "finished":
            places = {s.key: place for place, s in race.rank(rows, settings.NEAR_TIE_SECONDS)}
            results = {r.player_id: r for r in RoomResult.objects.filter(room_code=code)}
            for seat in room_seats:
                if seat.pk not in places:
                    continue
                if seat.place != places[seat.pk]:
                    report.problem(
                        "stored place differs from the replayed ranking",
                        f"{code} {seat.player.display_name}: {seat.place} vs {places[seat.pk]}",
                    )
                result = results.get(seat.player_id)
                if result is None or (
                    result.placement,
                    result.score,
                    result.summary.get("mistakes"),
                    result.summary.get("hints"),
                ) != (
                    places[seat.pk],
                    seat.score,
                    seat.mistakes,
                    seat.state.get("hints"),
                ):
                    report.problem("showdown history differs from the replay", f"{code} {seat.player.display_name}")
    report.figures["finish time vs log clock, max drift"] = f"{max_drift * 1000:.0f} ms"

    # --- what each client shows at the end equals the database ------------------------------
    seat_of = {}
    for code in codes:
        room = rooms.get(code)
        if room is None:
            continue
        for s in seats[room.pk]:
            seat_of[(code, s.player.display_name)] = s
    clock_checked, worst_clock = 0, 0.0
    for player in run.players:
        for code, seen in player.history.items():
            view = seen["view"]
            if player.watcher:
                expected = {s.player.display_name: (s.place, s.status, s.score) for s in seats[rooms[code].pk]}
                shown = {name: (place, status, score) for name, (place, status, score) in view.standings.items()}
                if rooms[code].state == "finished" and shown != expected:
                    report.problem(
                        "client state differs from the database",
                        f"watcher {player.name} {code}: shows {shown}, db {expected}",
                    )
                continue
            own = seat_of.get((code, player.name))
            if own is None:
                report.problem("client has no seat", f"{player.name} {code}")
                continue
            # Pencil marks are not in the log (nothing to replay): the client's are the row's.
            notes = {
                i: frozenset(d for d in range(1, 10) if m >> d & 1) for i, m in enumerate(own.state.get("notes", []))
            }
            mine = (
                view.cells,
                view.score,
                view.mistakes,
                view.hints,
                view.status,
                {i: d for i, d in view.notes.items() if d},
            )
            db = (
                own.state.get("cells"),
                own.score,
                own.mistakes,
                own.state.get("hints"),
                own.status,
                {i: d for i, d in notes.items() if d},
            )
            if mine != db:
                report.problem("client state differs from the database", f"{player.name} {code}: shows {mine}, db {db}")
            if not seen["left"] and rooms[code].state == "finished":
                expected = {s.player.display_name: (s.place, s.status, s.score) for s in seats[rooms[code].pk]}
                if view.standings != expected:
                    report.problem(
                        "client standings differ from the database",
                        f"{player.name} {code}: shows {view.standings}, db {expected}",
                    )
            if own.status == "finished" and seen["countdown_end"] and seen["finished_reply_at"]:
                # The server's clock for the finishing move lies between its send and its
                # answer on the client's clock (the countdown's end as the server told it).
                low = seen["finished_sent_at"] - seen["countdown_end"]
                high = seen["finished_reply_at"] - seen["countdown_end"]
                off = max(0.0, low - own.finish_seconds, own.finish_seconds - high)
                clock_checked += 1
                worst_clock = max(worst_clock, off)
                if off > clock_tolerance / 2:
                    report.problem(
                        "finish time differs from the client's clock",
                        f"{player.name} {code}: server {own.finish_seconds:.2f}s, "
                        f"client sent at {low:.2f}s, answered at {high:.2f}s",
                    )
    report.figures["finish time outside the client's send..answer window, worst"] = (
        f"{worst_clock * 1000:.0f} ms over {clock_checked} finishes"
    )

    # --- every update reached every client connected at the time ----------------------------
    missed, checked = 0, 0
    for code in codes:
        room = rooms.get(code)
        if room is None:
            continue
        room_events = events[code]
        last_version = room_events[-1].version if room_events else 0
        for player in run.clients_of(code):
            for conn in player.history[code]["connections"]:
                end = conn.closed_at or float("inf")
                for event in room_events:
                    t = event.created_at.timestamp()
                    if event.kind in ("note", "create") or not (conn.opened + 0.2 < t < end - fanout_margin):
                        continue
                    checked += 1
                    resynced = any(v is not None and v >= event.version for kind, v, *_ in conn.arrivals)
                    if strict and stats.in_fault(t) and resynced:
                        ok = True
                    elif event.kind in ("enter", "hint") and event.version != last_version:
                        ok = any(kind == "standings" and v == event.version for kind, v, *_ in conn.arrivals)
                    else:
                        ok = any(v is not None and v >= event.version for kind, v, *_ in conn.arrivals)
                    if not ok:
                        missed += 1
                        later = [v for kind, v, *_ in conn.arrivals if kind == "standings" and v and v > event.version]
                        seen = [(kind, v) for kind, v, *_ in conn.arrivals][-3:]
                        report.problem(
                            "updates that never reached a connected client",
                            f"{player.name} {code} v{event.version} {event.kind} at {t - conn.opened:.1f}s "
                            f"into the connection (closed {end - t:.1f}s after); later standings seen: "
                            f"{len(later)}; last frames {seen}",
                        )
    report.counts["update deliveries checked"] = checked

    # --- transport ----------------------------------------------------------------------------
    for item in stats.http_5xx:
        report.problem("HTTP 5xx", item)
    for item in stats.tracebacks:
        report.problem("tracebacks sent to a client", item)
    excused = expect_fault and not strict
    for t, code, reason, name in stats.error_closes:
        if excused and stats.in_fault(t):
            continue
        report.problem("sockets closed by an error", f"{name}: {code} {reason}")
    for t, what in stats.http_errors:
        if not (excused and stats.in_fault(t)):
            report.problem("HTTP connection failures", what)
    for t, what in stats.connect_failures:
        if not (excused and stats.in_fault(t)):
            report.problem("socket connection failures", what)
    for item in stats.unexpected:
        report.problem("unexpected frames or answers", item)
    for item in stats.timeouts:
        report.problem("moves never answered on a live socket", item)
    server_errors = []
    for path in logs:
        text = Path(path).read_text(errors="replace") if path and Path(path).exists() else ""
        server_errors += [line for line in text.splitlines() if re.search(r"Traceback|ERROR|Exception inside", line)]
    report.counts["server log errors"] = len(server_errors)
    if server_errors and not expect_fault:
        for line in server_errors[:20]:
            report.problem("errors in the server log", line)
    if strict:
        for line in [line for line in server_errors if "Exception inside" in line][:20]:
            report.problem("unhandled exceptions in the server log (500 or 1011)", line)
    report.counts["HTTP responses"] = dict(stats.http)
    report.counts["socket closes by code"] = dict(stats.closes)
    report.counts["reconnects"] = dict(
        stats.reconnects, resent=stats.resent, resent_without_answer=stats.resent_without_reply
    )
    report.counts["connect failures (fault window)"] = len(stats.connect_failures)
    return report


def figures(run, report: Report) -> Report:
    """Throughput and latency of a run, added to the report."""
    stats = run.stats
    answered = stats.replies["applied"] + stats.replies["refused"] + stats.replies["error"]
    seconds = (stats.ended - (stats.play_started or stats.started)) if stats.ended else float("nan")
    report.figures["run time"] = f"{stats.ended - stats.started:.1f} s (play {seconds:.1f} s)"
    report.figures["moves answered"] = (
        f"{answered} ({stats.replies['applied']} applied, "
        f"{stats.replies['refused']} refused) = {answered / seconds:.1f}/s"
    )
    lat = stats.latencies
    waits = stats.resync_waits
    report.figures["socket open -> full state (resync)"] = (
        f"p50 {pct(waits, 50) * 1000:.0f} ms, p99 {pct(waits, 99) * 1000:.0f} ms, max {max(waits, default=0):.1f} s "
        f"over {len(waits)} connects"
    )
    report.figures["answers slower than 5 s"] = sum(1 for x in lat if x > 5000)
    report.figures["move -> own answer"] = (
        f"p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, max {max(lat, default=float('nan')):.0f} ms"
    )
    fan = fanout_latencies(run)
    report.figures["move -> every other client updated"] = (
        f"p50 {pct(fan, 50):.1f} ms, p99 {pct(fan, 99):.1f} ms ({len(fan)} moves)"
    )
    return report


def fanout_latencies(run):
    out = []
    for code in run.codes:
        clients = run.clients_of(code)
        for sender in clients:
            for mid, answer in sender.outcomes.items():
                if answer[0] != "applied" or mid not in sender.sent_at or sender.sent[mid].get("mode") == "note":
                    continue
                version, t0 = answer[1], sender.sent_at[mid]
                worst = None
                for other in clients:
                    if other is sender:
                        continue
                    t = None
                    for conn in other.history[code]["connections"]:
                        t = next(
                            (
                                mono
                                for kind, v, wall, mono in conn.arrivals
                                if v is not None and v >= version and mono >= t0
                            ),
                            None,
                        )
                        if t is not None:
                            break
                    if t is None:
                        worst = None
                        break
                    worst = t if worst is None else max(worst, t)
                if worst is not None:
                    out.append((worst - t0) * 1000)
    return out
