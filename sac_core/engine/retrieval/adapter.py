"""Query adapter: a linear map that turns a question's vector toward the vectors of its answers,
learned on CPU from a labelled bank (:mod:`.exemplars`), one map per fold of documents.

The embedding model places a question near text that *talks about* its subject; inside a contract
the answer is often worded otherwise ("governing law" answered by "construed in accordance with the
laws of…"). The bank shows, document by document, which of its gold passages answers which question.
The adapter ``W`` (dim × dim, starting at the identity) is trained so that, inside each bank
document, the adapted question is closest to its own gold pieces among all the document's pieces:

    loss = mean over (document d, question q, wording w of q) of
           − Σ_p y_p · log softmax_p( cos(W·w, p) / temperature ),   p over the gold pieces of d,
           y = q's own pieces of d (uniform weights summing to 1)

Each wording of the question counts (the bank question and, when given, its paraphrases), so the map
does not learn one wording. It adds a score inside the routed document beside the plain cosine:
``cos(W·q, c)`` for each chunk ``c`` (:mod:`.within_document`).

**Target ``"chunks"``.** The gold pieces alone never show the map the text it must rank *below* the
answer: the rest of the contract. With ``target="chunks"`` the candidates are instead every chunk of
the bank document (as a run chunks it, :class:`BankChunks`), and a question's target weights each
chunk by the gold characters it holds (rows summing to 1): the softmax is then the within-document
ranking itself. It needs the bank documents' chunks embedded (cached by text, like a run's).

**Leave-document-out.** Documents are split into ``folds`` by the SHA-256 of their text; the map
that scores a document of fold ``f`` never saw a bank document of fold ``f``, so a document's own
labels never train what scores it (a bank made of the evaluated benchmark is an honest estimate,
as for the exemplars). A document outside the bank is scored by its fold's map all the same.

With ``target="pieces"`` training needs no chunk of the bank's documents, only the bank's pieces and
questions, which the exemplar bank has embedded already: on the whole LegalBench-RAG bank it takes
about half a minute per fold.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..chunking import Chunk
from ..data import Benchmark
from ..progress import progress_bar
from .exemplars import ExemplarBank
from .query import split_query

TARGETS: tuple[str, ...] = ("pieces", "chunks")


@dataclass(frozen=True)
class AdapterSettings:
    folds: int = 5  # documents split by the SHA-256 of their text (≥ 2: a document never trains its own map)
    epochs: int = 2  # passes over the bank's documents
    temperature: float = 0.05  # softmax temperature over cosines
    learning_rate: float = 1e-3  # Adam
    seed: int = 0  # document order and initialisation: the same bank and settings give the same maps
    target: str = "pieces"  # "pieces": own gold pieces among the document's; "chunks": the document's chunks

    def __post_init__(self) -> None:
        if self.folds < 2 or self.epochs < 1 or self.temperature <= 0 or self.learning_rate <= 0:
            raise ValueError("adapter: folds >= 2, epochs >= 1, temperature > 0 and learning_rate > 0")
        if self.target not in TARGETS:
            raise ValueError(f"adapter: target must be one of {TARGETS}, not {self.target!r}")


def fold_of(document: str, folds: int) -> int:
    """The fold of a document, from its key in the bank (the SHA-256 of its text, or its path)."""
    return int(hashlib.sha256(document.encode()).hexdigest()[:8], 16) % folds


@dataclass(frozen=True)
class Group:
    """One bank document's candidates (the bank's pieces or the document's chunks: indices into the
    candidate vectors) and, per wording of each question answered there, the weights of its own
    answer among them (rows summing to 1)."""

    document: str
    candidates: np.ndarray  # (m,) indices into the candidate vectors
    wordings: np.ndarray  # (n,) indices into the bank's wording vectors (questions, then paraphrases)
    targets: np.ndarray  # (n, m)


@dataclass(frozen=True)
class BankChunks:
    """The bank documents' chunks as a run chunks them, with their vectors, for ``target="chunks"``:
    ``bench`` is the bank's labelled benchmark (its queries' gold spans, its documents' texts)."""

    bench: Benchmark
    chunks: Sequence[Chunk]
    vectors: np.ndarray  # (len(chunks), dim), rows at unit length


def _rows(bank: ExemplarBank, document: str, candidates: np.ndarray, answers: dict[int, np.ndarray]) -> Group | None:
    """The group of one document: a row per wording of each question whose target weighs some but not
    all candidates (else there is nothing to tell apart); None when no question has such a row."""
    rows, targets = [], []
    for question in sorted(answers):
        own = answers[question]
        if not own.any() or (own > 0).all():
            continue
        for wording in np.flatnonzero(bank.phrase_family == question):
            rows.append(int(wording))
            targets.append(own / own.sum())
    return Group(document, candidates, np.array(rows, dtype=np.int64), np.array(targets)) if rows else None


def groups_of(bank: ExemplarBank) -> list[Group]:
    """The training groups of ``bank``: per document, every question with pieces there and at least
    one piece of another question (else there is nothing to tell apart), each of its wordings a row."""
    out = []
    for document in sorted({str(d) for d in bank.file_of}):
        pieces = np.flatnonzero(bank.file_of == document)
        asked = bank.question_of[pieces]
        group = _rows(bank, document, pieces, {int(q): (asked == q).astype(np.float64) for q in np.unique(asked)})
        if group is not None:
            out.append(group)
    return out


def _overlaps(starts: np.ndarray, ends: np.ndarray, spans: list[tuple[int, int]]) -> np.ndarray:
    """Characters of ``spans`` inside each chunk [start, end) (summed over the spans)."""
    held = np.zeros(len(starts))
    for start, end in spans:
        held += np.clip(np.minimum(ends, end) - np.maximum(starts, start), 0, None)
    return held


def chunk_groups(bank: ExemplarBank, chunks: BankChunks) -> list[Group]:
    """The training groups for ``target="chunks"``: per bank document, its chunks (indices into
    ``chunks.chunks``); a question's target weighs each chunk by the characters of the question's gold
    spans there it holds ([start, end) overlaps, several queries of one question summed)."""
    index = {q: i for i, q in enumerate(bank.questions)}
    gold: dict[str, dict[int, list[tuple[int, int]]]] = {}
    for query in chunks.bench.queries:
        question = index.get(split_query(query.text).question)
        if question is None:  # a query whose gold spans are all empty has no pieces in the bank
            continue
        for span in query.gold:
            gold.setdefault(span.file_path, {}).setdefault(question, []).append((span.start, span.end))
    by_path: dict[str, list[int]] = {}
    for i, chunk in enumerate(chunks.chunks):
        by_path.setdefault(chunk.file_path, []).append(i)
    out = []
    for path in sorted(set(gold) & set(by_path)):
        ids = np.array(by_path[path], dtype=np.int64)
        starts = np.array([chunks.chunks[i].start for i in ids])
        ends = np.array([chunks.chunks[i].end for i in ids])
        answers = {question: _overlaps(starts, ends, spans) for question, spans in gold[path].items()}
        group = _rows(bank, bank.bank_key(path, chunks.bench.documents[path].sha256), ids, answers)
        if group is not None:
            out.append(group)
    return out


def train_map(
    groups: list[Group],
    wordings: np.ndarray,
    candidates: np.ndarray,
    settings: AdapterSettings,
    on_step: Callable[[], None] | None = None,
) -> np.ndarray:
    """``W`` (dim × dim, float32) trained on ``groups`` (module docstring), one Adam step per group
    (``on_step()`` after each)."""
    import torch  # the embedding backend's dependency; imported here so that loading this module stays light

    torch.manual_seed(settings.seed)
    dim = wordings.shape[1]
    w = torch.nn.Parameter(torch.eye(dim))
    optimiser = torch.optim.Adam([w], lr=settings.learning_rate)
    words = torch.from_numpy(np.ascontiguousarray(wordings))
    parts = torch.from_numpy(np.ascontiguousarray(candidates))
    rng = np.random.default_rng(settings.seed)
    for _ in range(settings.epochs):
        for g in rng.permutation(len(groups)):
            group = groups[int(g)]
            q = words[group.wordings] @ w.T
            q = q / q.norm(dim=1, keepdim=True)
            logits = q @ parts[group.candidates].T / settings.temperature
            target = torch.from_numpy(group.targets).float()
            loss = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if on_step is not None:
                on_step()
    return w.detach().numpy().astype(np.float32)


class QueryAdapter:
    """One map per fold (``maps``: folds × dim × dim); :meth:`adapt` picks the document's fold's."""

    def __init__(self, maps: np.ndarray) -> None:
        self.maps = maps

    @classmethod
    def train(
        cls,
        bank: ExemplarBank,
        settings: AdapterSettings,
        *,
        chunks: BankChunks | None = None,
        progress: bool = False,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> QueryAdapter:
        """The maps of every fold, each trained on the bank's documents outside it (``chunks``: needed
        by ``target="chunks"``). ``progress``: a bar with time left on stderr; ``on_progress(done,
        total)``: steps over all folds (for UIs)."""
        if settings.target == "chunks":
            if chunks is None:
                raise ValueError('adapter: target "chunks" needs the bank documents\' chunks')
            groups, candidates = chunk_groups(bank, chunks), chunks.vectors
        else:
            groups, candidates = groups_of(bank), bank.vectors
        folds = [[g for g in groups if fold_of(g.document, settings.folds) != fold] for fold in range(settings.folds)]
        total = settings.epochs * sum(map(len, folds))
        bar = progress_bar(total=total, desc="training the query adapter", unit="step", disable=not progress)
        done = 0

        def step() -> None:
            nonlocal done
            done += 1
            bar.update(1)
            if on_progress is not None:
                on_progress(done, total)

        try:
            maps = [train_map(outside, bank.phrase_vectors, candidates, settings, step) for outside in folds]
        finally:
            bar.close()
        return cls(np.stack(maps))

    def adapt(self, question_vector: np.ndarray, document: str) -> np.ndarray:
        """``W·q`` at unit length, with the map of ``document``'s fold (its bank key: :meth:`.ExemplarBank.document_key`)."""
        v = self.maps[fold_of(document, len(self.maps))] @ question_vector
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)
