# Runs one firmware test module under MicroPython: every test_* function, a line per failure,
# a summary with the heap it used. Exit status 1 when any test failed.
#   MICROPYPATH=build/mpy:build/mpytests micropython -X heapsize=64k -m mpy_runner test_link
import gc
import sys


def main(name):
    gc.collect()
    free0 = gc.mem_free()
    mod = __import__(name)
    passed = failed = 0
    low = gc.mem_free()  # least free heap seen after a test, before its garbage is collected
    for attr in sorted(dir(mod)):
        if not attr.startswith("test_"):
            continue
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


sys.exit(main(sys.argv[1]))
