# Enrolment: which tag is which card (docs/protocol.md, "Enrolment"), beside the card reads
# (sense/cards.py), which hold the tags enrolled and divert the next tag read to it while a
# card is awaited (`enrol_as`). It owns that state: it sets it (`enrol`, a tag laid, a new
# game), keeps it on flash (the card awaited in state.json, with the game: store.Store.awaited;
# the tags in tags.json, below) and takes it up again at power-up. Loaded only on a table
# with a card reader.
#
# tags.json: the tags enrolled, in the store's envelope (store._head: a temporary file, a
# rename, a CRC), one tag a line, written only when a tag is enrolled or forgotten: a game
# saved many times a minute does not rewrite the deck, and a saved game found unusable does
# not take the deck with it. A tags.json found damaged at boot is renamed tags.bad (kept for
# a person to look at: never written over by the next enrolment) and the table starts with
# the tags of hardware/; one that could not be read (short of heap, a flash error) may be
# good: it is left as it is and not written over until the next power-up reads it.
# (Its imports inside the functions that use them: a module-level name is a slot in the
# module's dictionary, on the heap of a frozen board.)


class Enrolment:
    def __init__(self, cards, store, emit):
        self.cards = cards  # sense.cards.CardReads
        self.store = store  # store.Store, or None: nothing outlives a reset
        self.emit = emit  # the link's numbered events
        self._unread = None  # why tags.json could not be read: it is not written over

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
        tag. Either way the game is saved this pass: the tag lies on the spot, the last read
        (games/cards.py: not a card played at a power-up that finds it there)."""
        card, uid = tag
        game.unsaved = game.urgent = True
        game.spot = uid
        cards = self.cards
        why = cards.learn(bytes.fromhex(uid), card)
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
        why = self.save_tags(self.cards.tags)
        if why:
            why = "%s: not saved, it lasts until the board restarts: %s" % (what, why)
            self.emit({"type": "error", "what": "enrolled-tags", "why": why})

    def save_tags(self, tags):
        """The enrolled tags on flash; `tags` gives (UID hex, card) pairs afresh at each call
        (it is read twice: the CRC first, then the file). None once there, else why not (the
        file as it was stays: the tags enrolled before are not lost)."""
        if self._unread:
            return (
                "the tags on flash were not read at power-up (%s): restart the board "
                % (self._unread)
                + "before enrolling, or they would be written over"
            )
        import os
        from binascii import crc32

        from store import _head

        crc = 0
        for piece in _tag_lines(tags()):
            crc = crc32(piece.encode(), crc)
        tmp = self.store.folder + "/tags.tmp"
        try:
            with open(tmp, "w") as f:
                f.write(_head(crc))
                for piece in _tag_lines(tags()):
                    f.write(piece)
                f.write("}")
            os.rename(tmp, self.store.folder + "/tags.json")
        except OSError as e:
            return "the flash refused it (%s)" % e
        return None

    def load_tags(self, add):
        """Reads the enrolled tags, add(UID hex, card) for each, a line at a time. None, or
        why the file could not be used (damaged: set aside as tags.bad; what add() was given
        must then be forgotten: it is known only at the end, by the CRC)."""
        import json
        import os
        from binascii import crc32

        from store import _head

        folder = self.store.folder
        path = folder + "/tags.json"
        try:
            with open(path) as f:
                head = f.readline()
                i = head.find('"crc":') + 6
                want = int(head[i : head.index(",", i)]) if i > 5 else -1
                body = '{"tags":{\n'
                if head != _head(want) + body:
                    raise ValueError("not a tag file")
                crc = crc32(body.encode())
                for line in f:
                    if line.startswith("}}}"):
                        crc = crc32(b"}}", crc)  # the last } closes the envelope
                        if line.rstrip("\n") != "}}}" or crc != want:
                            raise ValueError("checksum mismatch")
                        return None
                    crc = crc32(line.encode(), crc)
                    pair = json.loads("{" + line.rstrip("\n").rstrip(",") + "}")
                    for uid in pair:
                        add(uid, pair[uid])
                raise ValueError("cut short")
        except (MemoryError, OSError) as e:
            if e.args and e.args[0] == 2:  # ENOENT
                return None  # nothing enrolled yet
            # not read (short of heap, a flash error): it may be good, so it is left as it
            # is and not written over until the next power-up reads it
            self._unread = str(e) or type(e).__name__
            return "enrolled tags not read (%s): not used until the next power-up" % e
        except (ValueError, KeyError, TypeError) as e:
            try:
                os.rename(path, folder + "/tags.bad")
            except OSError:
                pass
            return "enrolled tags unreadable (%s): kept as tags.bad, enrol them again" % e

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

        why = self.load_tags(add)
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


def _tag_lines(tags):
    """The body of tags.json in pieces: {"tags":{ then "UID":"card" a line each, then }}
    (JSON as a whole too: json.load reads it, as it reads the store's files)."""
    yield '{"tags":{\n'
    sep = ""
    for uid, card in tags:
        yield '%s"%s":"%s"' % (sep, uid, card)
        sep = ",\n"
    yield "\n}}"
