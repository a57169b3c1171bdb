# What the table (firmware/table.py) asks of every game. A game overrides what it uses; the
# defaults here answer the inputs it has no use for (a Weykick table has no squares, a card
# game no goals).


class Game:
    def __init__(self, emit):
        self.emit = emit  # callable(dict): the link's numbered events

    persist = None  # callable(): save the game now (the Table sets it when there is a store)
    unsaved = False  # the game changed since it was last saved
    resumed = False  # restored after a reset, not yet said

    def on_sensor(self, bit, level, now):
        pass

    def on_goal(self, name, level, now, since):
        pass

    def on_button(self, name, now):
        pass

    def on_card(self, text, uid, now):
        self.emit(
            {"type": "error", "what": "no-cards", "uid": uid, "why": "this game has no cards"}
        )

    def on_pile(self, cards, now):
        """The cards lying on the reader at power-up (a pile left by a reset or a power
        cut), read all at once before any card counts as laid: [(card or None, uid hex)].
        Said as a `pile` event; a game that keeps its own memory of cards may check it."""
        known = [c for c, _ in cards if c is not None]
        self.emit({"type": "pile", "cards": known, "unknown": len(cards) - len(known)})

    def unknown_tag(self, uid):
        self.emit(
            {
                "type": "error",
                "what": "unknown-tag",
                "uid": uid,
                "why": "tag %s is not a card of this deck (enrol it first)" % uid,
            }
        )

    def on_enrolled(self, card, uid):
        self.emit({"type": "enrolled", "card": card, "uid": uid})

    def step(self, now, settled=True):
        pass
