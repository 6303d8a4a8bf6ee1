"""Document-level scores: which document a query is about, before (or beside) which chunk.

SAC puts document context into every chunk's vector; a **document prior** adds it as a separate
score instead: a chunk's score is its cosine to the question plus ``doc_weight`` × its document's
score, where the document's score is the query's cosine to an embedded representation of the
document (a longer summary, the title and parties, or the file name) plus ``doc_bm25`` × the
query's BM25 over the document's full text, max-normalised per query to [0, 1], plus ``doc_names`` ×
the share of the query's *rare* words that the document's file name holds (:class:`NameMatcher`).
LegalBench-RAG's document references were written from file names ("BT's NDA" for ``BT_NDA.txt``,
whose text names only "Transnet"), so a name is often the only place a reference is found. A
corpus whose names say nothing (ids, scans) gives that term no match: it then adds nothing. **Routing**
ranks the chunks of the top ``route_docs`` documents first. Both follow the two-level retrieval
the SAC paper names as its outlook, and Rainbow RAG's document routing; the BM25 term is the
keyword side of KG-CiteRAG's hybrid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from urllib.parse import unquote

import numpy as np

from ..entities import extract_entities
from ..indexes import BM25Index
from ..indexes.bm25 import tokenize
from .profiles import ProfileMatcher

RARE_SHARE = 0.1  # a query word held by at most this share of the documents' texts can pick out one by its name
PREFIX_CHARS = 4  # a rare word this long also matches a name word it begins ("hpil" in "HPILHOLDING")


def filename_text(file_path: str) -> str:
    """A file name as words: ``contractnli/CopAcc_NDA-v2.txt`` → ``CopAcc NDA v2``."""
    return re.sub(r"[_\-.]+", " ", PurePosixPath(file_path).stem).strip()


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def name_words(file_path: str) -> str:
    """A file name as the words a reference would use: URL escapes decoded, separators and
    camelCase split, each joined word also kept whole
    (``NDA-SqillerBetaTesters.txt`` → ``NDA Sqiller Beta Testers SqillerBetaTesters``)."""
    words = re.findall(r"\w+", filename_text(unquote(file_path)).replace("_", " "))
    split = [part for word in words for part in _CAMEL.split(word) if part]
    whole = [word for word in words if _CAMEL.search(word)]
    return " ".join(split + whole)


def title_text(text: str) -> str:
    """What the document says it is and who it binds, read from its text (not its file name)."""
    found = extract_entities(text)
    return "; ".join([found.title, *found.parties[:4]])


def representations(documents: Mapping[str, str], kind: str, summaries: Mapping[str, str] | None = None) -> list[str]:
    """One text per document (in sorted path order) for ``kind``: ``summary`` (from
    ``summaries``), ``title`` or ``filename``."""
    paths = sorted(documents)
    if kind == "summary":
        if summaries is None:
            raise ValueError("doc_repr 'summary' needs document summaries")
        missing = [p for p in paths if p not in summaries]
        if missing:
            raise KeyError(f"no summary for document {missing[0]}")
        return [summaries[p] for p in paths]
    if kind == "title":
        return [title_text(documents[p]) for p in paths]
    if kind == "filename":
        return [filename_text(p) for p in paths]
    raise ValueError(f"unknown document representation {kind!r}")


class NameMatcher:
    """Which file names hold a query's rare words.

    A word of the query is *rare* when at most :data:`RARE_SHARE` of the documents' texts hold it
    ("BT", "JBF", "Sqiller"; not "Non-Disclosure Agreement", which would pick whichever NDA's name
    spells it out). A document's score is the share of the rare words' weight its name holds, each
    word weighted by its rarity in the texts, ``ln(1 + n / (1 + df))``: 1 when the name holds them
    all, 0 when it holds none. Not normalised per query: a name that shares one minor word with the
    reference ("AG" of "Ginares AG" in ``AGProjects-NDA.txt``) scores little, whatever the others."""

    def __init__(self, paths: Sequence[str], texts: BM25Index) -> None:
        self.texts, self.size = texts, len(paths)
        self.holding: dict[str, list[int]] = {}  # name word → the documents whose name has it
        for i, path in enumerate(paths):
            for word in set(tokenize(name_words(path))):
                self.holding.setdefault(word, []).append(i)
        self._found: dict[str, np.ndarray] = {}

    def rare_words(self, query: str) -> list[str]:
        """The distinct words of ``query`` held by at most :data:`RARE_SHARE` of the texts, in order."""
        most = RARE_SHARE * self.size
        return list(dict.fromkeys(t for t in tokenize(query) if self.texts.document_frequency(t) <= most))

    def scores(self, query: str) -> np.ndarray:
        """Per document, the weighted share of ``query``'s rare words its file name holds."""
        out = np.zeros(self.size, dtype=np.float32)
        weights = {
            t: float(np.log1p(self.size / (1 + self.texts.document_frequency(t)))) for t in self.rare_words(query)
        }
        total = sum(weights.values())
        for word, weight in weights.items():
            out += np.float32(weight / total) * self._holders(word)
        return out

    def _holders(self, word: str) -> np.ndarray:
        """1.0 for each document whose name has ``word`` (or, from :data:`PREFIX_CHARS` letters on, a
        word beginning with it), else 0.0 (remembered per word)."""
        if word not in self._found:
            found = np.zeros(self.size, dtype=np.float32)
            for name_word, docs in self.holding.items():
                if name_word == word or (len(word) >= PREFIX_CHARS and name_word.startswith(word)):
                    found[docs] = 1.0
            self._found[word] = found
        return self._found[word]


class DocumentScorer:
    """Scores every document for a query: cosine to its representation + ``bm25_weight`` × normalised
    BM25 over its text + ``names_weight`` × the share of the query's rare words its file name holds
    + ``profile_weight`` × the share of the reference's distinctive words its self-description
    holds (:class:`~.profiles.ProfileMatcher`)."""

    def __init__(
        self,
        paths: Sequence[str],
        vectors: np.ndarray,
        texts: Sequence[str] | None = None,
        bm25_weight: float = 0.0,
        names_weight: float = 0.0,
        *,
        profile_weight: float = 0.0,
        summaries: Sequence[str] | None = None,
    ) -> None:
        """``vectors[i]``: unit vector of document ``paths[i]``'s representation; ``texts``: the
        documents' full texts for the BM25, file-name and profile terms (needed when one weighs);
        ``summaries``: what the profiles read besides the texts (optional)."""
        self.paths = tuple(paths)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.bm25_weight, self.names_weight, self.profile_weight = bm25_weight, names_weight, profile_weight
        wanted = bm25_weight > 0 or names_weight > 0  # the file-name term reads the texts' word counts
        if (wanted or profile_weight > 0) and texts is None:
            raise ValueError("a BM25, file-name or profile document term needs the documents' texts")
        self.bm25 = BM25Index(list(texts)) if wanted and texts is not None else None
        self.names = NameMatcher(self.paths, self.bm25) if names_weight > 0 and self.bm25 is not None else None
        self.profiles = ProfileMatcher(list(texts), summaries) if profile_weight > 0 and texts is not None else None

    def scores(self, query: str, vector: np.ndarray) -> np.ndarray:
        """One score per document, in ``paths`` order."""
        out: np.ndarray = self.vectors @ np.asarray(vector, dtype=np.float32)
        if self.bm25 is not None and self.bm25_weight > 0:
            out = out + _normalised(self.bm25.scores(query), self.bm25_weight)
        if self.names is not None:
            out = out + np.float32(self.names_weight) * self.names.scores(query)
        if self.profiles is not None:
            out = out + np.float32(self.profile_weight) * self.profiles.scores(query)
        return out


def _normalised(keyword: np.ndarray, weight: float) -> np.ndarray:
    """``weight`` × ``keyword`` scaled so its largest value is 1 (zeros stay zeros)."""
    top = float(keyword.max()) if keyword.size else 0.0
    return np.float32(weight / top) * keyword if top > 0 else np.zeros_like(keyword)
