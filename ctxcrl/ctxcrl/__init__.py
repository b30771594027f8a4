"""ctxcrl: the ground every contextcrawler tool stands on (ARCHITECTURE §1, §2).

What all seven tools share, and nothing above it: where the files live (`home`), the user's
`config.toml` (`config`), the record of one run and the spool it is appended to (`spool`), and
how every command line behaves and ends (`console`). It imports only the standard library and
never a tool: every arrow points down to it.

Its modules are imported by name (`from ctxcrl import home`); this file loads nothing, since
`cc-filter run` and every hook stage import the package.
"""
