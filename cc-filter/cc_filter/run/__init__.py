"""The runner side: run a command (or take one's result), guard its output while it streams,
spill what does not fit in memory, keep the raw output in a tee file, and hand the filter's
answer to whatever reads it after a pipe. `cc-filter run` and `cc-filter result` live here."""
