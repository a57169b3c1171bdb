# The real board, built from hardware/pinmap.json: the only place that touches `machine`
# besides the drivers it hands buses to. Untested here (no ESP32): it is type-checked
# against the ESP32 stubs and follows the pin map the simulator also reads.
import machine

from hal.inputs import Inputs
from hal.mfrc522 import MFRC522, ReaderError
from hal.shiftin import ShiftChain
from sense import hwmap
from sense.scan import Board

WDT_MS = 8000  # a hang restarts the board; the loop feeds it every 5 ms scan


def build(folder="hardware"):
    """(Board, watchdog, problems): what could not be set up is reported, not fatal."""
    pins = hwmap.load(folder, "pinmap.json")
    names = hwmap.sensor_names(folder)
    problems = []
    c = pins["shift_chain"]
    latch = machine.Pin(c["latch"], machine.Pin.OUT, value=1)
    spi = machine.SPI(
        c["spi"],
        baudrate=c["baudrate"],
        polarity=0,
        phase=0,
        sck=machine.Pin(c["sck"]),
        miso=machine.Pin(c["miso"]),
    )
    chain = ShiftChain(spi, latch, (len(names) + 7) // 8)
    r = pins["reader"]
    rspi = machine.SPI(
        r["spi"],
        baudrate=r["baudrate"],
        polarity=0,
        phase=0,
        sck=machine.Pin(r["sck"]),
        mosi=machine.Pin(r["mosi"]),
        miso=machine.Pin(r["miso"]),
    )
    mfrc = MFRC522(
        rspi,
        machine.Pin(r["cs"], machine.Pin.OUT, value=1),
        machine.Pin(r["rst"], machine.Pin.OUT, value=1),
    )
    reader = mfrc  # type: MFRC522 | None
    try:
        mfrc.init()
    except ReaderError as e:
        problems.append(str(e))  # the table still plays; cards cannot be read: said at boot
        reader = None
    pull = machine.Pin.PULL_UP
    buttons = Inputs(
        ("undo", "new", "pause"),
        {n: machine.Pin(p, machine.Pin.IN, pull) for n, p in pins["buttons"].items()},
    )
    # goal inputs 34/35 have no internal pull-up: the board's resistors do it (wiring.md)
    goals = Inputs(
        ("A", "B"), {n: machine.Pin(p, machine.Pin.IN) for n, p in pins["goals"].items()}
    )
    board = Board(
        chain=chain,
        reader=reader,
        buttons=buttons,
        goals=goals,
        names=names,
        registry=hwmap.registry(folder),
    )
    return board, machine.WDT(timeout=WDT_MS), problems
