# Starts like the ESP32 port does at power-up (ports/esp32/main.c): boot.py, then main.py,
# both from the board's filesystem (the current folder), in one interpreter.


def _run(name):
    try:
        with open(name) as f:
            src = f.read()
    except OSError:
        return
    exec(compile(src, name, "exec"), {"__name__": "__main__"})


_run("boot.py")
_run("main.py")
