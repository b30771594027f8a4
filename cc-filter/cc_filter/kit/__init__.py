"""The kit a filter author uses: the Filter base class and its result, line helpers, the
guarded regular expressions, option parsing for a command's own flags, TOML filters, and the
rare-line picker for cuts."""
