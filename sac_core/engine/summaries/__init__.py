"""Document summaries for Summary-Augmented Chunking (Reuter et al. 2025, arXiv:2510.06999).

One short summary per document (``chars`` characters, accepted up to ``chars + 20``) is later
prepended to each of the document's chunks. Providers:

- ``extractive`` (default): offline, deterministic fingerprint of the text (:mod:`.extractive`);
- ``openai``: any OpenAI-compatible chat API with the paper's prompts (:mod:`.openai_provider`);
- ``file``: summaries imported from a JSONL file (:mod:`.file`).

Usage::

    config = SummaryConfig(provider="openai", prompt="generic", chars=150)
    print(estimate_cost(docs, config, cache_dir))          # before: tokens and USD
    records = summarize_documents(docs, config, cache_dir)  # cached, resumable
    print(run_cost(records, config))                       # after: tokens the API reported

The API key is an argument (or ``$OPENAI_API_KEY``, read at call time), never a config field.
"""

from ..entities.rules import document_type as guess_document_type
from .config import PROVIDERS, SummaryConfig
from .errors import SummaryError
from .file import read_summary_file
from .prompts import Prompt, list_prompts, load_prompt
from .provider import Provider, SummaryResult
from .summarize import CostEstimate, SummaryRecord, estimate_cost, make_provider, run_cost, summarize_documents

__all__ = [
    "PROVIDERS",
    "CostEstimate",
    "Prompt",
    "Provider",
    "SummaryConfig",
    "SummaryError",
    "SummaryRecord",
    "SummaryResult",
    "estimate_cost",
    "guess_document_type",
    "list_prompts",
    "load_prompt",
    "make_provider",
    "read_summary_file",
    "run_cost",
    "summarize_documents",
]
