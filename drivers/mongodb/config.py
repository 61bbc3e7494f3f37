"""Configuration of the MongoDB driver: fields and defaults, database names, URI redaction.

Everything here is pure (no I/O), so validation happens before any connection is attempted.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from aalis_memory.drivers import semantics as sem

PLUGIN_NAME: Final = "@aalis/plugin-memory-mongodb"
DEFAULT_URI: Final = "mongodb://localhost:27017"
DEFAULT_DATABASE_BASE: Final = "aalis"
DEFAULT_COLLECTION: Final = "messages"
DEFAULT_CONNECT_TIMEOUT_MS: Final = 5000
METADATA_COLLECTION: Final = "metadata"
#: MongoDB refuses database names longer than this many bytes.
MAX_DATABASE_NAME_BYTES: Final = 63
#: Characters MongoDB refuses in database names (on any platform).
_BAD_DATABASE_CHARS: Final = frozenset('/\\. "$\x00')
UNOWNED: Final = "unowned"

#: A URI scheme (``mongodb://``, ``mongodb+srv://``, any other): where a URI starts in free text.
_SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
MASK: Final = "***"
#: Shorter secrets are not searched for in free text (they would mask ordinary words); the
#: userinfo of a URI is always masked, whatever its length.
MIN_SECRET_CHARS: Final = 4


class ConfigError(ValueError):
    """A configuration (or ownership) problem that stops the driver from opening; one line."""


def _redact_segment(segment: str) -> str:
    """One URI without its scheme (and whatever text follows it): the userinfo is everything up
    to the last ``@`` (a host never holds one; a password may: space, tab, newline, ``/``, even
    an unescaped ``@``), the password everything in it after the first ``:``. When the end of the
    URI is unclear, more is masked, never less."""
    at = segment.rfind("@")
    if at < 0:
        return segment
    user, colon, _password = segment[:at].partition(":")
    return f"{user}:{MASK}{segment[at:]}" if colon else segment


def redact_uri(text: str) -> str:
    """``text`` with the password of every URI in it replaced by ``***``; text without any scheme
    is read as one URI written without it (``alice:pw@host``).

    Parsed, not pattern-matched: each URI runs from its scheme to the next scheme or the end of
    the text, and its userinfo up to the last ``@`` in that stretch.
    """
    starts = [match.end() for match in _SCHEME.finditer(text)]
    if not starts:
        return _redact_segment(text)
    pieces = [text[: starts[0]]]
    for index, start in enumerate(starts):
        following = _SCHEME.search(text, start)
        end = following.start() if following is not None else len(text)
        pieces.append(_redact_segment(text[start:end]))
        if following is not None and index + 1 < len(starts):
            pieces.append(text[end : starts[index + 1]])
    return "".join(pieces)


def uri_secrets(uri: str) -> tuple[str, ...]:
    """The password of ``uri`` as written, percent-decoded and re-encoded: the spellings a
    message about the URI (pymongo's included) may quote without the URI around it."""
    stripped = uri.split("://", 1)[1] if "://" in uri else uri
    at = stripped.rfind("@")
    if at < 0:
        return ()
    _user, colon, password = stripped[:at].partition(":")
    if not colon:
        return ()
    spellings = {
        password,
        urllib.parse.unquote(password),
        urllib.parse.unquote_plus(password),
        urllib.parse.quote(password, safe=""),
        urllib.parse.quote_plus(password),
    }
    found = {s for s in spellings if len(s) >= MIN_SECRET_CHARS}
    # Longest first, so a spelling that contains another is masked whole.
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


class Redactor:
    """Masks the secrets of one configured URI in any text the driver emits: every URI's
    password (:func:`redact_uri`) and, anywhere, the configured password itself."""

    def __init__(self, uri: str) -> None:
        self._secrets = uri_secrets(uri)

    def __call__(self, text: str) -> str:
        text = redact_uri(text)
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text

    def __repr__(self) -> str:
        return f"Redactor({len(self._secrets)} secret spelling(s))"


def _positive_int(what: str) -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        try:
            sem.check_cap(value, what)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    return check


def _string(what: str, *, empty: bool) -> Any:
    def check(_instance: Any, _attribute: Any, value: Any) -> None:
        if not isinstance(value, str):
            raise ConfigError(f"{what} must be a string, got {type(value).__name__}")
        if not empty and not value.strip():
            raise ConfigError(f"{what} must not be empty")

    return check


def _collection(_instance: Any, _attribute: Any, value: str) -> None:
    if "$" in value or "\x00" in value or value.startswith("system."):
        raise ConfigError(f"collection {value!r} is not a valid MongoDB collection name")
    if value == METADATA_COLLECTION:
        raise ConfigError(
            f"collection must not be {METADATA_COLLECTION!r}: that collection holds the metadata"
        )


@attrs.frozen(kw_only=True)
class MongoConfig:
    """The driver's settings (the camelCase names of a host config file map onto these)."""

    #: A secret (it may carry credentials): never shown unredacted in reprs or logs.
    uri: str = attrs.field(default=DEFAULT_URI, validator=_string("uri", empty=False), repr=redact_uri)
    #: Empty: derived from the data directory and the instance.
    database: str = attrs.field(default="", validator=_string("database", empty=True))
    #: Empty normally; ``"unowned"`` or the old data directory to take a database over once.
    claim_from: str = attrs.field(default="", validator=_string("claim_from", empty=True))
    collection: str = attrs.field(
        default=DEFAULT_COLLECTION, validator=[_string("collection", empty=False), _collection]
    )
    #: Used for both the connect timeout and server selection.
    connect_timeout_ms: int = attrs.field(
        default=DEFAULT_CONNECT_TIMEOUT_MS, validator=_positive_int("connect_timeout_ms")
    )
    #: Range reads are cut to this many messages, silently.
    range_query_limit: int = attrs.field(
        default=sem.DEFAULT_RANGE_QUERY_LIMIT, validator=_positive_int("range_query_limit")
    )
    #: Cross-session reads asking for more are narrowed to this.
    cross_session_max_limit: int = attrs.field(
        default=sem.DEFAULT_CROSS_SESSION_MAX_LIMIT,
        validator=_positive_int("cross_session_max_limit"),
    )

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> MongoConfig:
        """Build from a host config block (camelCase keys, as the documents spell them)."""
        unknown = sorted(set(raw) - set(CAMEL_FIELDS))
        if unknown:
            raise ConfigError(
                f"unknown MongoDB setting(s) {', '.join(unknown)}; known: {', '.join(CAMEL_FIELDS)}"
            )
        return cls(**{CAMEL_FIELDS[key]: value for key, value in raw.items()})


CAMEL_FIELDS: Final[Mapping[str, str]] = {
    "uri": "uri",
    "database": "database",
    "claimFrom": "claim_from",
    "collection": "collection",
    "connectTimeoutMs": "connect_timeout_ms",
    "rangeQueryLimit": "range_query_limit",
    "crossSessionMaxLimit": "cross_session_max_limit",
}


@attrs.frozen
class HostPaths:
    """What the host says about where its data lives; ``None`` instead of this skips ownership.

    ``profile`` is set for a profile data directory (``data-<profile>/`` in a deployment).
    """

    data_dir: Path = attrs.field(converter=Path)
    profile: str | None = None

    @classmethod
    def for_data_dir(cls, data_dir: Path | str) -> HostPaths:
        """Read the profile from a ``data-<profile>`` directory name; any other name is main."""
        path = Path(data_dir)
        name = path.name
        profile = name[len("data-") :] if name.startswith("data-") and len(name) > 5 else None
        return cls(path, profile)

    def real_data_dir(self) -> str:
        """Ownership is by real path: symlinks and relative spellings name the same owner."""
        return str(self.data_dir.resolve())


def instance_label(suffix: str) -> str:
    """The plugin instance as the host names it (``@aalis/plugin-memory-mongodb:b``)."""
    return f"{PLUGIN_NAME}:{suffix}" if suffix else PLUGIN_NAME


def derive_database_name(host_paths: HostPaths | None, suffix: str) -> str:
    """``aalis`` or ``aalis_<profile>``; a suffixed instance adds ``-<suffix>`` / ``_<suffix>``."""
    profile = host_paths.profile if host_paths is not None else None
    if profile:
        base = f"{DEFAULT_DATABASE_BASE}_{profile}"
        return f"{base}_{suffix}" if suffix else base
    return f"{DEFAULT_DATABASE_BASE}-{suffix}" if suffix else DEFAULT_DATABASE_BASE


def check_database_name(name: str) -> str:
    """Refuse names MongoDB would refuse, with one line saying why."""
    size = len(name.encode("utf-8"))
    if size > MAX_DATABASE_NAME_BYTES:
        raise ConfigError(
            f"MongoDB database name {name!r} is {size} bytes, over the {MAX_DATABASE_NAME_BYTES}"
            "-byte limit; set database to a shorter name"
        )
    if not name:
        raise ConfigError("MongoDB database name is empty; set database")
    bad = "".join(sorted(set(name) & _BAD_DATABASE_CHARS))
    if bad:
        raise ConfigError(
            f"MongoDB database name {name!r} contains characters MongoDB refuses ({bad!r}); "
            "set database to another name"
        )
    return name


def resolve_database_name(config: MongoConfig, host_paths: HostPaths | None, suffix: str) -> str:
    """The configured name as written, else the derived one; checked either way."""
    name = config.database or derive_database_name(host_paths, suffix)
    return check_database_name(name)
