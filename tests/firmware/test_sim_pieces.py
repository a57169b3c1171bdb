# What the table shows, a piece a pass (issue 29), at the simulated table: the output stage
# never does more than one piece in a pass, none in the game's pass, and Tock's hints worked
# out over several passes are reach()'s; every line shown fits the displays and reads back
# whole. (Apart from test_sim_lights.py: each module's bytecode sits on the heap of the chip's
# run, at 111,936 B, beside a whole simulated table.)
from check import Rand
from lightcheck import TOCK, names_lit, settle, table, white
from simcheck import position


def test_one_piece_a_pass_and_none_in_the_games_pass():
    # a crowded 7 (its hints take several passes to work out) laid, a pawn lifted, set
    # down elsewhere (an `illegal`: the board read and checked) and back: in no pass does
    # the output stage do more than one piece (the game asked, a piece of the hints, the
    # table's part, the frame made, the frame written, half a page), none in a pass that
    # emitted an event or collected the garbage; the hints lit are reach()'s
    import table as table_module
    from games.tock.rules import CELLS, REACH, Card

    p = {
        "p.json": position(
            {"R": ["R15", "R16", "G9", "G10"], "B": ["R13", "R17", "G12", "BH2"]},
            rules="toc-fr",
            players=2,
        )
    }
    script = "table tock players=2 rules=toc-fr\nposition p.json\nwait 300\n"
    sim, _ = table(script, p)
    settle(sim)
    out = sim.table.outputs
    done = []  # what the output stage did in this pass
    counts = {}

    def count(obj, name, what):
        f = getattr(obj, name)

        def w(*a):
            done.append(what)
            counts[what] = counts.get(what, 0) + 1
            return f(*a)

        setattr(obj, name, w)

    for name in ("_redraw", "_compose", "_make_frame", "_one_page", "_second_half"):
        count(out, name, name)
    count(out.leds, "write", "write")
    from games.tock import hints

    count(hints.JOB, "step", "hints")
    heard = []
    listened = out.heard

    kinds = []

    def listen(ev):
        heard.append(ev["type"])
        kinds.append(ev["type"])
        listened(ev)

    out.heard = listen

    class Collector:
        runs = 0

        def collect(self):
            self.runs += 1

    collector = Collector()
    table_module.gc = collector
    passes = busy = 0
    sim.act(89, "pace", [0])  # (every pass after an action is this test's: checked)
    try:
        for verb, args, ms in (
            ("card", ["7S"], 400),
            ("lift", ["R15"], 300),
            ("place", ["R14"], 2500),
            ("lift", ["R14"], 300),
            ("place", ["R15"], 1500),
        ):
            sim.act(90, verb, args)
            end = sim.clock.now + ms
            while sim.clock.now < end:
                del done[:]
                del heard[:]
                runs = collector.runs
                sim.physical.tick()
                sim.table.step()
                sim.clock.sleep_ms(5)
                passes += 1
                assert len(done) <= 1, (verb, done)
                if heard or collector.runs != runs:
                    busy += 1
                    assert not done, (verb, heard, done)
    finally:
        import gc

        table_module.gc = gc
    settle(sim)
    # the card's hints, lit once whole: the pawns reach() gives
    pos = sim.game.pos
    want = bytearray(REACH)
    pos.reach(Card("7S"), want)
    leds = sim.game.cell_leds()
    lit = sorted(ph for ph in names_lit(sim, white))
    expect = sorted(sim.physical.names[leds[q]] for q in range(CELLS) if want[q])
    assert lit == expect and expect, (lit, expect)
    assert counts.get("hints", 0) >= 6 and busy >= 2 and passes > 900, (  # (CPython: no gc)
        counts,
        busy,
        passes,
        collector.runs,
        kinds,
    )


def _lines_fit(trials):
    # seeded crowded boards (up to 12 pawns out, a Jack or any card: up to 12 pawns that can
    # go): each line the table shows is at most 16 characters, and each display reads back
    # (its pixels decoded) exactly the lines the table meant, none cut at the glass's edges
    from sim import look

    squares = list(range(1, 19))
    seen = 0
    for trial in trials:
        sim = None
        r = Rand(41 + trial)
        pawns = {}
        used = set()
        for c in "RGBY":
            pawns[c] = []
            for _ in range(3 if trial % 2 else 1 + r.below(3)):
                while True:
                    sq = "RGBY"[r.below(4)] + str(squares[r.below(17)])  # (not on an 18)
                    if sq not in used:
                        break
                used.add(sq)
                pawns[c].append(sq)
        card = "JS" if trial % 2 else ("JH", "5H", "8D", "10C", "QS")[r.below(5)]
        script = TOCK + "position p.json\nwait 300\ncard %s\nwait 500\n" % card
        sim, _ = table(script, {"p.json": position(pawns)})
        settle(sim)
        out = sim.table.outputs
        meant = out.show.lines
        for line in meant:
            assert len(line) <= 16, (trial, line)
        for d in sim.physical.displays:
            big, lines = look.screen(d)
            assert lines == meant, (
                trial,
                lines,
                meant,
            )
        seen += int(meant[-1].split()[0]) >= 10 if meant[-1][0].isdigit() else 0
        sim = None
    if 1 in trials or 3 in trials:  # (a board with ten pawns or more that can go drawn)
        assert seen >= 1, seen


# (a table a test: the chip's run gives each test a process of its own at 111,936 B; the
# odd trials are the crowded ones, a Jack with 12 pawns out)
def test_every_line_fits_the_glass_and_reads_back_whole():
    _lines_fit((0,))


def test_every_line_fits_the_glass_and_reads_back_whole_crowded():
    _lines_fit((1,))


def test_every_line_fits_the_glass_and_reads_back_whole_again():
    _lines_fit((2,))


def test_every_line_fits_the_glass_and_reads_back_whole_crowded_again():
    _lines_fit((3,))


def _lit_as_reached(sim, card, s=-1):
    """The squares lit white, and those reach() gives for `card` (`s`: a lifted pawn's cell)."""
    from games.tock.rules import CELLS, REACH, Card

    want = bytearray(REACH)
    sim.game.pos.reach(Card(card), want, s)
    leds = sim.game.cell_leds()
    return names_lit(sim, white), sorted(
        sim.physical.names[leds[q]] for q in range(CELLS) if want[q]
    )


def _short_of_heap(trial):
    # the heap runs out in the middle of what the table shows, at a seeded call: in the
    # game's show when a pawn is lifted (nothing after it asks the game again: no event, no
    # timer), or deep in a piece of a 7's hints, the search's rows half made. With nothing
    # happening after, the table shows it all a moment later, and it is reach()'s.
    from games.tock import hints

    r = Rand(67 + trial)
    pawns = {"R": ["R15", "R16", "G9", "G10"], "G": ["G13", "B2"], "B": ["R13", "R17", "BH2"]}
    in_show = trial % 2 == 0
    card = ("7S", "5C", "JD", "8H")[r.below(4)] if in_show else "7" + "SHDC"[r.below(4)]
    sim, heard = table(TOCK + "position p.json\nwait 300\n", {"p.json": position(pawns)})
    settle(sim)
    fail_at = 1 if in_show else 1 + r.below(6)
    failed = []
    calls = [0]

    def failing(f):
        def w(*a):
            calls[0] += 1
            if calls[0] == fail_at:
                failed.append(calls[0])
                raise MemoryError("memory allocation failed (injected)")
            return f(*a)

        return w

    game = sim.game
    kept = hints._node7
    if not in_show:
        hints._node7 = failing(kept)
    try:
        sim.act(90, "card", [card])
        sim.advance(2000)  # (past the card spot's green: its timer asks the game again)
        settle(sim)
        if in_show:
            _, reached = _lit_as_reached(sim, card)
            leds = game.cell_leds()
            cells = [q for q in range(len(leds)) if sim.physical.names[leds[q]] in reached]
            s = cells[r.below(len(cells))]
            game.show = failing(game.show)
            sim.act(91, "lift", [sim.physical.names[leds[s]]])
            sim.advance(1000)  # (nothing happens meanwhile: no event, no timer)
            settle(sim)
    finally:
        hints._node7 = kept
        if in_show:
            del game.show
    assert failed, (trial, card, fail_at, calls)
    lit, reached = _lit_as_reached(sim, card, s if in_show else -1)
    assert lit == reached and reached, (trial, card, fail_at, lit, reached)
    errors = [e for e in heard.events() if e["type"] == "error"]
    assert not errors, errors  # (out of heap a moment is no bug to report)


def test_a_show_short_of_heap_is_shown_a_moment_later():
    for trial in (0, 1):
        _short_of_heap(trial)


def test_a_show_short_of_heap_is_shown_a_moment_later_more():
    for trial in (2, 3, 4, 5):
        _short_of_heap(trial)
