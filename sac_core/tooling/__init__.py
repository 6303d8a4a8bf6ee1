"""Measurement tooling, outside the layers the product needs: speed and memory figures
(:mod:`.bench`, ``sac bench``), the dashboard's timings in a real browser (:mod:`.timing`), the
headless Chromium driver (:mod:`.browser`) and the committed screenshots (:mod:`.screenshots`,
``sac screenshots``).

It may import the dashboard, experiments and engine; none of them imports it (``pyproject.toml``:
import-linter contracts). Nothing is re-exported here, so importing one tool never loads the others
(the screenshots need the whole dashboard; ``sac bench --help`` should not).
"""
