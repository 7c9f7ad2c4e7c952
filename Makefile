# All set-up lives here: `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# Where a CPU build of torch is fetched when no local one is found (override for CUDA).
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: check-core-install venv install compile wheels install-core install-distributed install-rllib install-play install-notebooks install-mutate install-docs demo test test-fast bench lint typecheck docs mutate mutate-sample clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

venv: $(PY)

# The core install: engines, PettingZoo envs and the test tools (no torch).
$(VENV)/.core: pyproject.toml | $(PY)
	$(PIP) install -q -e ".[dev]"
	touch $@

install-core: $(VENV)/.core

# A real core install (`pip install .`, no extras) in a fresh environment outside the repository
# runs the command: `deckgym --version` and `deckgym envs` (tests/test_core_install.py hides the
# extras' packages instead, within the test run).
CORE_VENV ?= /tmp/deckgym-core-venv
check-core-install:
	rm -rf $(CORE_VENV) && $(PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/pip install -q . 2>&1 | grep -v "^WARNING: Location" || true
	cd /tmp && $(CORE_VENV)/bin/deckgym --version && $(CORE_VENV)/bin/deckgym envs

# The full install adds the [train] extra. torch comes first so that the CPU build is used:
# a local wheel of torch==2.13.0 (the CPU build) when pip can find one offline, else the
# CPU index; only if both fail does the [train] extra pull torch from the default index.
$(VENV)/.train: pyproject.toml | $(VENV)/.core
	$(PIP) install -q --no-deps --no-index "torch==2.13.0" 2>/dev/null \
	  || $(PIP) install -q "torch>=2.3" --index-url $(TORCH_CPU_INDEX) 2>/dev/null \
	  || echo "no CPU build of torch found; the [train] extra installs the default one"
	$(PIP) install -q -e ".[train,dev]"
	touch $@

install: $(VENV)/.train $(VENV)/.compiled

# The compiled build: mypyc compiles the engines and encoders (deckgym/compiled.txt) from
# the same source, in place beside it, when a C compiler and Python's headers are here; else
# the pure-Python source runs. DECKGYM_PURE=1 runs the pure source even where the build exists.
# With DECKGYM_REQUIRE_COMPILED=1 (CI) a failed build is an error, never a silent fallback.
ENGINE_SOURCES := $(addprefix deckgym/,$(shell grep -v '^[\#-]' deckgym/compiled.txt))
# The stamp takes the time the build began: a source saved during the build is newer, so the
# next `make compile` builds again.
$(VENV)/.compiled: $(ENGINE_SOURCES) deckgym/compiled.txt setup.py | $(VENV)/.core
	@mkdir -p build; touch build/compile.started; if $(PY) scripts/can_compile.py; then \
	  find deckgym -name '*.so' -delete; \
	  DECKGYM_COMPILE=1 $(PY) setup.py -q build_ext --inplace > build/compile.log 2>&1 \
	    || { tail -20 build/compile.log; echo "the compiled build failed (log: build/compile.log)"; \
	         find deckgym -name '*.so' -delete; [ "$${DECKGYM_REQUIRE_COMPILED:-0}" = 0 ] || exit 1; }; \
	elif [ "$${DECKGYM_REQUIRE_COMPILED:-0}" != 0 ]; then exit 1; \
	else echo "no C compiler or Python headers here: the engines run as pure Python"; fi
	touch -r build/compile.started $@

compile: $(VENV)/.compiled

# Two wheels from the same source into dist/: the pure-Python one (any platform) and the
# compiled one for this platform (mypyc from the dev install, hence --no-isolation).
wheels: install-core
	rm -rf dist
	$(PY) -m build --wheel --no-isolation --outdir dist
	DECKGYM_COMPILE=1 $(PY) -m build --wheel --no-isolation --outdir dist

# The extras beside the core install: install-NAME installs the extras EXTRAS_NAME (by default
# the extra NAME) once, and leaves the stamp $(VENV)/.NAME.
# - distributed: Ray, for `--backend ray`; the tests install it so its test runs.
# - rllib: RLlib, for envs.rllib and scripts/rllib_ppo.py; torch is the CPU build of [train].
# - play: the [play] and [browser] extras: `deckgym serve` and its browser test (Chromium comes
#   from the system: `apt-get install chromium`, which .ci/run does when it is missing).
# - notebooks: nbclient and ipykernel: the tests run the notebooks in a real kernel.
# - docs: MkDocs, Material and mkdocstrings, for `make docs`.
# - mutate: mutmut, for the mutation testing below.
EXTRAS := distributed rllib play notebooks docs mutate
EXTRAS_play := play,browser

$(addprefix $(VENV)/.,$(EXTRAS)): $(VENV)/.%: pyproject.toml | $(VENV)/.core
	$(PIP) install -q -e ".[$(or $(EXTRAS_$*),$*)]"
	touch $@

# RLlib's torch is the CPU build that the [train] install puts first.
$(VENV)/.rllib: | $(VENV)/.train

$(addprefix install-,$(EXTRAS)): install-%: $(VENV)/.%

demo: install
	$(VENV)/bin/deckgym train medarot_ocg_v1 --mode normal --out runs/demo

# The checks that also run on the compiled build (when there is one): both builds give the same
# events, the stored fingerprints and event streams, the env contracts, the hidden-information
# tests and the worked examples.
COMPILED_CHECKS := tests/test_compiled.py tests/scripts/test_fingerprint.py tests/envs/test_events.py \
  tests/envs/test_ecosystem.py tests/agents/test_honesty.py tests/envs/test_global_state.py \
  $(wildcard tests/envs/*/test_worked_examples.py)

# The whole suite runs on the pure-Python reference; then the checks above on the compiled build.
test: install $(VENV)/.distributed $(VENV)/.rllib $(VENV)/.play $(VENV)/.mutate $(VENV)/.notebooks
	DECKGYM_PURE=1 $(PY) -m pytest -q -n 2
	@if $(PY) -c "import deckgym, sys; sys.exit(not deckgym.compiled)"; then \
	  echo "the same checks on the compiled build:"; \
	  $(PY) -m pytest -q -n 2 -m "not pure" $(COMPILED_CHECKS); \
	else echo "no compiled build here: the pure-Python build was the one tested"; fi

test-fast: install-core
	$(PY) -m pytest -q -n 2 -m "not slow and not train"

bench: install-core
	$(PY) scripts/bench.py

# Mutation testing (mutmut, the [mutate] extra): every rules package and the agents (hours on
# 2 cores; interrupted runs resume), or a fixed sample of mutants with a time budget (CI).
mutate: install-mutate
	DECKGYM_PURE=1 $(PY) scripts/mutate.py --all

mutate-sample: install-mutate
	DECKGYM_PURE=1 $(PY) scripts/mutate.py amalogs mow --sample 12 --seed 0 --budget 420 --min-score 0.4

lint: install-core typecheck
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy checks the engines under their import name, deckgym.envs (pyproject.toml lists the files).
typecheck: install-core
	$(VENV)/bin/mypy

# The documentation site (mkdocs.yml) into build/site; --strict fails on any warning or broken link.
# The API pages read the source under its import name (deckgym.envs, deckgym.agents).
docs: install-docs
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir build/site

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache mutants mutants-work build
	find deckgym -name '*.so' -delete
