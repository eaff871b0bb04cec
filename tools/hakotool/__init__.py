"""hakotool: host-side harness for the Hako microkernel.

Modules:
  paths    - repository root and results/ locations
  qemu     - boot profiles and QEMU argv construction
  results  - console-line normalisation and `@@ ` result-line parsing
  runner   - building, launching QEMU, timeouts, exit-status mapping
  summary  - human-readable rendering of results .jsonl files
  testall  - the `make test` engine (table-driven test plan)
  bench    - registry of benchmark profiles (the papers' own in papers/)
  papers   - one package per paper: its benches, criteria, tables, plots, report section
  report   - `./hako report`: the papers' experiments run, docs/report/ written
  cli      - argument parsing for `./hako`
"""

__version__ = "0.1.0"
