# Enrolment: which tag is which card (docs/protocol.md, "Enrolment"), beside the card reads
# (sense/cards.py), which hold the tags enrolled and divert the next tag read to it while a
# card is awaited (`enrol_as`). It owns that state: it sets it (`enrol`, a tag laid, a new
# game), has the store keep it (the tags in tags.json at once; the card awaited in
# state.json, with the game: store.Store.awaited) and takes it up again at power-up. Loaded
# only on a table with a card reader.


class Enrolment:
    def __init__(self, cards, store, emit):
        self.cards = cards  # sense.cards.CardReads
        self.store = store  # store.Store, or None: nothing outlives a reset
        self.emit = emit  # the link's numbered events

    def _await(self, card):
        """The card the next tag laid is enrolled as (None: none awaited), saved with the
        game from now on."""
        self.cards.enrol_as = card
        if self.store:
            self.store.awaited = card

    def command(self, cmd):
        """`enrol card=7H` (or es:12B): the next tag laid on the reader becomes that card
        (the card was typed already: games.settings, kind "card"); `enrol card=cancel`: no
        tag awaited any more; `unenrol 04A31922` (or `unenrol all`): enrolled tags forgotten,
        on flash too. None when done, else why refused. The table saves an `enrol` before its
        answer goes: a board reset after it still waits for that tag (or no longer)."""
        if cmd["cmd"] == "enrol":
            self._await(None if cmd["card"] == "cancel" else cmd["card"])
            return None
        tag = cmd["tag"]
        why = self.cards.unlearn(tag)
        if why is None:
            self._keep_tags("unenrol %s" % tag)
        return why

    def laid(self, tag, game):
        """A tag laid while `enrol` waits ((card, uid hex): sense.scan.Sense.step): enrolled
        and on flash, then `enrolled` (with its UID and card, and how many tags are enrolled
        here) goes out; refused, an `error` says why and the table waits on for the right
        tag. Either way the game is saved this pass (the card lies on its pile: a stray,
        games/cards.py)."""
        card, uid = tag
        game.unsaved = game.urgent = True
        cards = self.cards
        raw = bytes.fromhex(uid)
        why = cards.learn(raw, card)
        laid = cards.card_of(raw)
        if laid:  # it lies on the pile: not a card played
            game.lying((laid,))
        if why:
            self.emit({"type": "error", "what": "enrol", "card": card, "uid": uid, "why": why})
            return
        self._await(None)
        self._keep_tags("enrol %s as %s" % (uid, card))
        self.emit({"type": "enrolled", "card": card, "uid": uid, "enrolled": cards.enrolled})

    def ended(self, why):
        """A new game: the next card laid is one of its deal, not a tag (docs/protocol.md)."""
        if self.cards.enrol_as:
            self.emit({"type": "enrol_ended", "card": self.cards.enrol_as, "why": why})
            self._await(None)

    def _keep_tags(self, what):
        """The enrolled tags to flash, at once; a flash that refuses is said (the change
        lasts until the board restarts)."""
        if not self.store:
            return
        why = self.store.save_tags(self.cards.tags)
        if why:
            why = "%s: not saved, it lasts until the board restarts: %s" % (what, why)
            self.emit({"type": "error", "what": "enrolled-tags", "why": why})

    def load(self):
        """At boot: the tags enrolled here, from flash. None, or what went wrong: a file
        damaged (then none is used), or entries left out (not a UID and a card, another
        card already, or past ENROL_MAX)."""
        cards = self.cards
        bad = []

        def add(uid, card):
            from link.commands import typed  # only when there are tags: heap

            try:
                h = typed({"cmd": "unenrol", "tag": uid})["tag"]
                card = typed({"cmd": "enrol", "card": card})["card"]
                why = None if h == uid and h != "all" else "not a UID"
            except ValueError as e:
                why = str(e)
            if why or cards.learn(bytes.fromhex(uid), card):
                bad.append(uid)

        why = self.store.load_tags(add)
        if why:
            cards.unlearn("all")  # a damaged file: none of it is believed
            return why
        if bad:
            return (
                "enrolled tags left out (not a UID and a card, another card already, or more "
                "than the table holds): %s" % " ".join(str(u)[:24] for u in bad[:8])
            )
        return None

    def resume(self, card):
        """A tag awaited when the power went: awaited still (the host had the answer)."""
        if card is None:
            return
        from link.commands import typed

        try:
            self._await(typed({"cmd": "enrol", "card": card})["card"])
        except ValueError:
            pass  # not a card: nothing awaited (the host, unanswered, asks again)
