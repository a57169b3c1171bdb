"""`plateau enrol`: teach the table which tag is which card, one card or a whole deck, with
the UID each tag answered, duplicates caught, and a tag map written as it goes (so an
interrupted deck keeps what was done; the file has the shape of hardware/tags.json).

The table keeps what it enrolled on its own flash (firmware/store.py, tags.json there), so
the file written here is a copy for people and for other tables, not what the table needs.
A tag that is another card already is refused by the table (an `error` naming that card):
it is said, and the table waits on for the right tag."""

from __future__ import annotations

import json
import time
from pathlib import Path

from plateau.errors import NoBoard, PlateauError, UsageError
from plateau.hostlink import HostLink, LinkError

FRENCH = [r + s for s in "SHDC" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
SPANISH = {
    40: [f"es:{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)],
    48: [f"es:{r}{s}" for s in "OCEB" for r in range(1, 13)],
}
TAGS_FILE_MAX = 1 << 20  # a tag map: about 40 bytes a card, room for thousands of decks
DECKS = {
    "french": [*FRENCH, "X", "X"],  # 52 and the two jokers of toc-fr (T18)
    "spanish40": SPANISH[40],
    "spanish48": SPANISH[48],
}


def enrol(port: str, cards: list[str], write: str | None, baud: int, timeout: float, say=print):
    """Asks for each card in turn; returns (tags {uid: card}, problems)."""
    tags: dict[str, str] = {}
    if write and Path(write).exists():
        from plateau.commands import read_json

        try:  # read as every user's file is: UTF-8, bounded in size and nesting
            tags = dict(read_json(write, TAGS_FILE_MAX)["tags"])
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"{write} is not a tag map: {e}") from None
    if write and not Path(write).resolve().parent.is_dir():  # found out now, not after a tag
        raise UsageError(f"cannot write {write}: no folder {Path(write).parent}")
    link = HostLink(port, baud)
    try:
        link.open()
    except LinkError as e:
        raise NoBoard(str(e)) from None
    todo = list(cards)
    done = 0
    try:
        while todo:
            card = todo[0]
            say(f"[{done + 1}/{len(cards)}] lay the tag of {card} on the reader")
            uid = _enrol_one(link, card, timeout, say)
            if uid is None:
                say(f"  no tag within {timeout:.0f} s: {card} skipped")
                todo.pop(0)
                continue
            before = tags.get(uid)
            if before is not None and before != card and before in cards:
                # the same tag twice in this deck: the earlier card has lost its tag
                say(f"  DUPLICATE: tag {uid} was {before}; it is {card} now: {before} again later")
                todo.append(before)
                done -= 1
            tags[uid] = card
            todo.pop(0)
            done += 1
            say(f"  {card}: tag {uid}")
            if write:
                _write(write, tags)
    finally:
        link.close()
    return tags


def _enrol_one(link: HostLink, card: str, timeout: float, say=print) -> str | None:
    """The UID the next tag laid answered, once the table took it as `card`; None after
    `timeout` s. The command is sent again (same id: applied once) until it is answered.
    Interrupted (Ctrl-C, `kill`), the table stops waiting too, as when the time is up: a
    board left waiting took the next card of the game for the tag."""
    import signal
    import threading

    def stop(*_):
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, stop) if main else None
    try:
        return _await_tag(link, card, timeout, say)
    except KeyboardInterrupt:
        say(f"  interrupted: the table stops waiting for the tag of {card} too (enrol cancel)")
        _cancel(link)
        raise
    finally:
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)


def _await_tag(link: HostLink, card: str, timeout: float, say) -> str | None:
    cmd = {"cmd": "enrol", "card": card}
    cid = link.send(cmd)
    end = time.monotonic() + timeout
    answered = False
    sent = time.monotonic()
    for ev in link.events():
        kind = ev.get("type")
        if kind == "answer" and ev.get("id") == cid:
            if not ev.get("ok"):
                raise PlateauError(f"the table refused to enrol {card}: {ev.get('why')}")
            answered = True
        if kind == "enrolled" and ev.get("card") == card:
            return str(ev.get("uid"))
        if kind == "error" and ev.get("what") in ("enrol", "enrolled-tags"):
            say(f"  {ev.get('why')}")
        if kind == "enrol_ended" and ev.get("card") == card and answered:
            raise PlateauError(f"the table stopped waiting for the tag of {card}: {ev.get('why')}")
        now = time.monotonic()
        if now > end:
            _cancel(link)
            return None
        if not answered and now - sent >= 1.0:
            link.send(cmd)
            sent = now
    return None


def _cancel(link: HostLink, wait: float = 2.0) -> None:
    """The host gave up on the tag: the table stops waiting for it too (`enrol
    card=cancel`), or the next card laid would be taken for the tag."""
    cid = link.send({"cmd": "enrol", "card": "cancel"})
    end = time.monotonic() + wait
    for ev in link.events():
        if ev.get("type") == "answer" and ev.get("id") == cid or time.monotonic() > end:
            return


def _write(path: str, tags: dict[str, str]) -> None:
    tmp = Path(path + ".tmp")
    tmp.write_text(json.dumps({"tags": dict(sorted(tags.items()))}, indent=1) + "\n")
    tmp.replace(path)
