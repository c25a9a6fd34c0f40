"""``assay.dask``: Dask collections scored on the shared LocalCluster equal ``assay.score`` on lists."""
from __future__ import annotations

import pytest

import assay
from assay.core.errors import InputError, KnobError


@pytest.fixture(scope="module")
def bag(distributed_module):
    import dask.bag

    return dask.bag


@pytest.fixture
def client(dask_client):
    dask_client.wait_for_workers(2, timeout=60)
    return dask_client


@pytest.mark.parametrize("metric,profile", [("bleu", None), ("chrf", "sacrebleu-chrf++"), ("ter", None),
                                            ("rouge", None)])
def test_a_bag_scores_as_the_list_does(client, bag, report_shards, metric, profile):
    import assay.dask

    hyps, refs = report_shards.lines()
    expected = assay.score(metric, hyps, refs, profile)
    scored = assay.dask.score(metric, bag.from_sequence(hyps, npartitions=7),
                              [bag.from_sequence(r, npartitions=7) for r in refs], profile, client=client)
    assert scored.to_json() == expected.to_json()


def test_sentence_scores_and_missing_references(client, bag, report_shards):
    import assay.dask

    hyps, (ref1, ref2) = report_shards.lines()
    ref2 = [None if i % 9 == 0 else r for i, r in enumerate(ref2)]     # sacrebleu's nrefs:var
    expected = assay.sentence_scores("bleu", hyps, [ref1, ref2])
    scored = assay.dask.sentence_scores("bleu", bag.from_sequence(hyps, npartitions=4),
                                        [bag.from_sequence(ref1, npartitions=4), bag.from_sequence(ref2, npartitions=4)],
                                        client=client)
    assert [s.to_json() for s in scored] == [s.to_json() for s in expected]
    corpus = assay.dask.score("bleu", bag.from_sequence(hyps, npartitions=4),
                              [bag.from_sequence(ref1, npartitions=4), bag.from_sequence(ref2, npartitions=4)],
                              client=client)
    assert corpus.to_json() == assay.score("bleu", hyps, [ref1, ref2]).to_json()


def test_a_dataframe_column_scores_as_the_list_does(client, report_shards):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import assay.dask

    hyps, (ref1, ref2) = report_shards.lines()
    frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref1": ref1, "ref2": ref2}), npartitions=5)
    scored = assay.dask.score("chrf", frame["hyp"], [frame["ref1"], frame["ref2"]], client=client)
    assert scored.to_json() == assay.score("chrf", hyps, [ref1, ref2]).to_json()
    with pytest.raises(InputError, match=r"hyps is a dataframe: pass one column of it"):
        assay.dask.score("chrf", frame, [frame["ref1"]], client=client)


def test_collections_partitioned_differently_are_an_input_error(client, bag, report_shards):
    import assay.dask

    hyps, (ref1, _) = report_shards.lines()
    with pytest.raises(InputError, match="reference stream 1 has 3 partitions but the hypotheses have 4"):
        assay.dask.score("bleu", bag.from_sequence(hyps, npartitions=4), [bag.from_sequence(ref1, npartitions=3)],
                         client=client)
    with pytest.raises(InputError, match="refs must be a non-empty list of reference collections"):
        assay.dask.score("bleu", bag.from_sequence(hyps, npartitions=4), bag.from_sequence(ref1, npartitions=4),
                         client=client)
    with pytest.raises(InputError, match=r"partition 2: hypothesis 1 is None"):
        assay.dask.score("bleu", bag.from_sequence([*hyps[:75], None, *hyps[76:]], npartitions=4),
                         [bag.from_sequence(ref1, npartitions=4)], client=client)


def test_corpus_pass_families_are_a_knob_error(client, bag):
    import assay.dask

    with pytest.raises(KnobError, match="nist: scoring Dask collections needs"):
        assay.dask.score("nist", bag.from_sequence(["a b"]), [bag.from_sequence(["a b"])], client=client)


def test_import_assay_does_not_import_dask():
    import subprocess
    import sys

    code = ("import sys, assay; assay.score('bleu', ['a b'], [['a b']]); "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')); "
            "print(bad); sys.exit(bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert assay.__name__ == "assay"
