# The power cut while a button is held (a person's finger still on it when the board comes
# back): a press acted on before the cut (its event numbered and on flash) never counts again
# after the power-up, a press the cut came before is done once or not at all, and what the
# table says after the power-up (its snapshot) is what its numbered events add up to.
# Seeded scripts: Weykick's three buttons among goals, and the same presses at a Tock and a
# Hold'em table (where most are refused: an `error` each, which must not come twice either),
# with a reset at a random ms after random presses. Runs under pytest and MicroPython.
import gc

from check import Rand
from simcheck import run

from sim.physical import BUTTON_MS

BUTTONS = ("undo", "new", "pause")
_SURE_MS = 30  # held this long the press was acted on (20 ms debounce, a 5 ms pass, margin)


def script(head, rng, actions, goals):
    """(script text, presses): each press (button, boot index, sure); sure: acted on before
    any reset (else the reset came within _SURE_MS of it: once or not at all)."""
    text = head + "pace 0\n"
    presses = []
    boot = 0
    for _ in range(actions):
        what = rng.below(6 if goals else 4)
        if what >= 4:  # a goal, scored and the ball taken out
            text += "ball %s\nwait 300\nclear %s\nwait 1000\n" % ((rng.pick("AB"),) * 2)
            continue
        button = rng.pick(BUTTONS)
        text += "button %s\n" % button
        if what == 0:  # the power goes r ms after the press: before, while, after it is held
            r = rng.int(0, 40) if rng.below(2) else rng.int(0, BUTTON_MS + 60)
            presses.append((button, boot, r >= _SURE_MS))
            text += "wait %d\nreset\nwait 400\n" % r
            boot += 1
        else:
            presses.append((button, boot, True))
            text += "wait 400\n"
    button = rng.pick(BUTTONS)  # and every script ends with the power cut while one is held
    presses.append((button, boot, True))
    text += "button %s\nwait %d\nreset\nwait 400\n" % (button, rng.int(_SURE_MS, BUTTON_MS))
    return text, presses


def pressed(e):
    """The button a numbered event answers, or None (a goal's, a power-up's)."""
    t = e["type"]
    if t == "error" and e.get("what") == "button":
        return e["button"]
    return {"undo": "undo", "game": "new", "pause": "pause", "resume": "pause"}.get(t)


def check(head, rng, actions, goals=False):
    """Plays one seeded script; returns (presses, acted on, presses cut at)."""
    text, presses = script(head, rng, actions, goals)
    gc.collect()  # (the last table's pieces: a whole table to start on a fresh heap)
    evs = run(text)
    boots = [[] for _ in range(len(presses) + 1)]
    boot = -1
    for e in evs:
        if e["type"] == "hello":
            boot += 1
        elif "seq" in e and pressed(e):
            boots[boot].append(pressed(e))
    acted = sum(len(b) for b in boots)
    for k in range(boot + 1):
        want = [p[0] for p in presses if p[1] == k and p[2]]
        unsure = [p[0] for p in presses if p[1] == k and not p[2]]  # the last before the cut
        got = boots[k]
        ok = got == want or (unsure and got == want + unsure)
        assert ok, "boot %d: presses %r (%r cut), events %r\n%s" % (k, want, unsure, got, text)
    assert acted <= len(presses), (acted, len(presses))
    return len(presses), acted, sum(1 for p in presses if not p[2])


def test_weykick_a_press_held_through_a_reset_counts_once_W5():
    counts = [0, 0, 0]
    for seed in (7101, 7102, 7103, 7104, 7105):
        rng = Rand(seed)
        got = check("table weykick mode=first-to:30 best-of=3\n", rng, 8, goals=True)
        counts = [a + b for a, b in zip(counts, got)]
    print(
        "weykick: %d presses, %d acted on, %d cut within %d ms"
        % (counts[0], counts[1], counts[2], _SURE_MS)
    )


def test_weykick_state_after_power_up_is_what_its_events_say():
    rng = Rand(7110)
    text, _ = script("table weykick mode=first-to:30 best-of=3\n", rng, 8, True)
    score, paused, match = {"A": 0, "B": 0}, False, 1
    hellos = 0
    for e in run(text):
        t = e["type"]
        if t == "snapshot":
            hellos += 1
            seen = (e["score"], e["paused"], e["match"])
            assert seen == (score, paused, match), (hellos, seen, score, paused, match, text)
        elif t in ("goal", "undo"):
            score = e["score"]
        elif t == "game":
            score, paused, match = {"A": 0, "B": 0}, False, e["match"]
        elif t in ("pause", "resume"):
            paused = t == "pause"
        elif t == "resumed":
            assert (e["score"], e["match"]) == (score, match), (e, score, match)
    assert hellos >= 2, text  # the script did cut the power
