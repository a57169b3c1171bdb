# Runs one firmware test module under MicroPython: every test_* function (or the one named),
# a line per failure, a summary with the heap it used. Exit status 1 when any test failed.
# `--list` prints the module's tests, one a line: the chip's run (make mpytest) plays each
# whole-table test in a process of its own, on a fresh heap, as a board plays one table.
#   MICROPYPATH=build/mpy:build/mpytests micropython -X heapsize=64k -m mpy_runner test_link
#   ... -m mpy_runner test_sim_tock --list;  ... -m mpy_runner test_sim_tock test_T9_...
import gc
import sys


def main(name, only=None):
    gc.collect()
    free0 = gc.mem_free()
    mod = __import__(name)
    tests = [a for a in sorted(dir(mod)) if a.startswith("test_")]
    if only == "--list":
        for attr in tests:
            print(attr)
        return 0
    if only is not None:
        if only not in tests:
            print("no test %s in %s" % (only, name))
            return 1
        tests = [only]
        name = name + "." + only
    passed = failed = 0
    low = gc.mem_free()  # least free heap seen after a test, before its garbage is collected
    for attr in tests:
        fn = getattr(mod, attr)
        try:
            fn()
            passed += 1
        except Exception as e:  # a failing test: report it, run the others
            failed += 1
            print("FAIL %s.%s: %s: %s" % (name, attr, type(e).__name__, e))
            if failed <= 3:  # the first tracebacks say enough
                sys.print_exception(e)  # type: ignore[attr-defined]
        low = min(low, gc.mem_free())
        gc.collect()
    print(
        "micropython %s: %d passed, %d failed (heap: %d B free at start, %d B at the lowest)"
        % (name, passed, failed, free0, low)
    )
    return 1 if failed or not passed else 0


sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
