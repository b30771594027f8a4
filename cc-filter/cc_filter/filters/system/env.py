"""env / printenv: the environment with every secret-looking value masked (a security rule).

A value is shown as `****` when
- its variable's name contains KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASS, PWD_HASH,
  CREDENTIAL, AUTH, PRIVATE, SESSION, COOKIE, SIGNING, SIGNATURE, CERT, DSN, SALT, API or
  WEBHOOK (any case; `PWD`, `OLDPWD` and a few well-known harmless names such as
  `SESSION_MANAGER`-free `XDG_SESSION_TYPE` are not secrets), or
- the value itself looks like a credential whatever the name: a known token prefix (`ghp_`,
  `github_pat_`, `sk-`, `xox?-`, `AKIA`, `AIza`, `glpat-`, `npm_`, `pypi-`, `whsec_`, `eyJ` for
  JWTs, …), a long run of letters and digits mixing cases and digits, or a URL with a password
  (`postgres://user:****@host/db` keeps the rest of the URL).
A value over several lines (a PEM key) is masked on every line, and everything between
`-----BEGIN` and `-----END` is masked wherever it appears. `printenv NAME…` prints bare values:
when any requested name is secret-looking every line is masked (the lines cannot be matched
to names, since unset names print nothing).

Besides masking, the filter shortens colour tables (`LS_COLORS=<1520 chars>`); every other
variable and value is kept exactly. It never marks output as dropped, so no raw copy (with
the secrets) is written to the tee directory. Nothing is injected.

Routed here: the forms that print the environment and run nothing — `env` with only `-i`, `-`,
`--ignore-environment`, `-u NAME`, `--unset=NAME`, `--` and `NAME=value` words, and
`printenv` with only names (`env FOO=1 cmd` runs a command and is not routed; neither are the
NUL-separated `-0`/`--null` forms, which are output for a program).

In a pipe: cc-rewrite rewrites an environment listing whatever reads it (`env | grep -i
token` → `cc-filter run env | grep -i token`), so what follows must get the same answer it
would get from the raw output, up to the values replaced. That holds: every input line gives
exactly one output line, in order, with the variable's name and `=` kept; only secret values
(`****`) and colour tables (`<N chars>`) are replaced (tests/cc_filter/filters/test_env.py).
`wc -l`, `sort`, `head`, `cut -d= -f1` and a grep on names or on plain values answer as before;
a grep into a secret or a colour table does not (ask for that variable with `printenv NAME`:
a colour table is printed whole there).
"""
from cc_filter.kit.filter import Filter

MASK = "****"
_SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "CREDENTIAL", "AUTH",
                 "PRIVATE", "SESSION", "COOKIE", "SIGNING", "SIGNATURE", "CERT", "DSN", "SALT",
                 "API", "WEBHOOK", "BEARER", "OTP", "PIN")
_HARMLESS = frozenset({"PWD", "OLDPWD", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS",
                       "XDG_SESSION_DESKTOP", "XDG_SESSION_ID", "KEYTIMEOUT", "SSH_AUTH_SOCK",
                       "GPG_AGENT_INFO", "PASSWORD_STORE_DIR", "KEYMAP", "XKB_KEYMAP"})
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "sk_live_",
                   "sk_test_", "rk_live_", "pk_live_", "xoxb-", "xoxp-", "xoxa-", "xoxr-",
                   "xoxs-", "AKIA", "ASIA", "AIza", "glpat-", "npm_", "pypi-", "whsec_", "eyJ",
                   "hf_", "dop_v1_", "shpat_", "SG.", "ya29.", "AccountKey=", "-----BEGIN")
_COLOUR_TABLES = frozenset({"LS_COLORS", "LSCOLORS", "ZLS_COLORS", "GREP_COLORS", "EXA_COLORS",
                            "EZA_COLORS", "JQ_COLORS", "GCC_COLORS"})
_PEM_BEGIN = "-----BEGIN"
_PEM_END = "-----END"


def secret_name(name: str) -> bool:
    upper = name.upper()
    if upper in _HARMLESS:
        return False
    return any(word in upper for word in _SECRET_WORDS)


def _mixed_run(value: str) -> bool:
    """A long unbroken run of letters/digits (and -_/+=.) mixing upper, lower and digits."""
    best = run = 0
    kinds = set()
    best_kinds: set = set()
    for char in value:
        if char.isalnum() or char in "-_/+=.":
            run += 1
            if char.isdigit():
                kinds.add("d")
            elif char.isupper():
                kinds.add("u")
            elif char.islower():
                kinds.add("l")
            if run > best:
                best, best_kinds = run, set(kinds)
        else:
            run, kinds = 0, set()
    return best >= 24 and len(best_kinds) == 3


def secret_value(value: str) -> bool:
    text = value.strip().strip("'\"")
    if text.startswith(_TOKEN_PREFIXES) and len(text) >= 12:
        return True
    if "/" not in text and " " not in text and _mixed_run(text):
        return True
    return False


def mask_url_password(value: str) -> str:
    """`scheme://user:password@host/…` → `scheme://user:****@host/…`; other values unchanged."""
    scheme, sep, rest = value.partition("://")
    if not sep:
        return value
    authority, slash, tail = rest.partition("/")
    userinfo, at, host = authority.rpartition("@")
    if not at or ":" not in userinfo:
        return value
    user = userinfo.split(":", 1)[0]
    return f"{scheme}://{user}:{MASK}@{host}{slash}{tail}"


def _assignment(line: str):
    """`NAME=value` → (NAME, value); None when the line is not an assignment."""
    name, sep, value = line.partition("=")
    if not sep or not name or not (name[0].isalpha() or name[0] == "_"):
        return None
    if not all(c.isalnum() or c == "_" for c in name):
        return None
    return name, value


class Env(Filter):
    name = "env"
    match_command = (r"^env(?: (?:--ignore-environment|--unset[= ][A-Za-z_][A-Za-z0-9_]*|--"
                     r"|-u ?[A-Za-z_][A-Za-z0-9_]*|-i|-|[A-Za-z_][A-Za-z0-9_]*=\S*)(?= |$))*+$"
                     r"|^printenv(?: [A-Za-z_][A-Za-z0-9_]*)*+$")
    description = "env/printenv: secret values masked, colour tables shortened"
    #: This filter's output must replace the raw output in every case: the runner's raw
    #: fallbacks (never worse, failure tail, filter error, tee copy) would show the secrets.
    redacts = True

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        names = [w for w in argv[1:] if not w.startswith("-")]
        self.bare_values = bool(argv) and argv[0].rsplit("/", 1)[-1] == "printenv" and bool(names)
        self.mask_all = self.bare_values and any(secret_name(n) for n in names)
        self.masking = False  # inside a masked value that spans lines
        self.in_pem = False

    def feed(self, line: str):
        if self.mask_all:
            return (MASK,)
        if self.in_pem:
            if _PEM_END in line:
                self.in_pem = False
            return (MASK,)
        if self.bare_values:
            if _PEM_BEGIN in line:
                self.in_pem = _PEM_END not in line
                return (MASK,)
            return (MASK if secret_value(line) else mask_url_password(line),)
        pair = _assignment(line)
        if pair is None or (self.masking and secret_value(pair[0])):
            # a continuation line of a multi-line value
            if self.masking or _PEM_BEGIN in line or secret_value(line):
                if _PEM_BEGIN in line and _PEM_END not in line:
                    self.in_pem = True
                return (MASK,)
            return (line,)
        name, value = pair
        self.masking = False
        if _PEM_BEGIN in value and _PEM_END not in value:
            self.in_pem = True
            self.masking = True
            return (f"{name}={MASK}",)
        if secret_name(name) or secret_value(value):
            self.masking = True
            return (f"{name}={MASK}",)
        if name in _COLOUR_TABLES and len(value) > 40:
            return (f"{name}=<{len(value)} chars>",)
        return (f"{name}={mask_url_password(value)}",)
