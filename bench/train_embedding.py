"""Learn search's word vectors (app/search/embedding-words.json) from the question tables, and commit them.

    python3 bench/train_embedding.py            # uses the built store (rulings build first); a minute or more

Each table question (corpus/data/rule-questions) is trained to lie nearer its own passage than every other
passage the tables answer (app/search/embedding.py, ``learn_words``); then the German tables' questions teach
German words their vectors, every English one held still (``_learn_german``). The file records the digest of the
tables it was learned from; ``rulings build`` applies it to the documents without training, logs when the
tables have changed since, and tests/test_search_model_files.py fails until this is run again.
Benches that hold table rows out (bench/table_holdout.py, bench/train_ranker.py) learn their own vectors
from the copy instead, so their figures never count questions the vectors saw.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.search import embedding  # noqa: E402
from app.search.indexer import vector_training_data  # noqa: E402
from app.store.db import Store  # noqa: E402


def main() -> int:
    t0 = time.perf_counter()
    pairs, doc_words, german = vector_training_data(Store())
    model = embedding.learn_words(pairs, doc_words, german=german)
    embedding.save_words(model, inputs=embedding.training_inputs())
    print(f"{len(model.words)} words from {len(pairs)} table questions and {len(german)} German ones in {time.perf_counter() - t0:.0f} s: "
          f"wrote {embedding.COMMITTED.relative_to(Path.cwd()) if embedding.COMMITTED.is_relative_to(Path.cwd()) else embedding.COMMITTED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
