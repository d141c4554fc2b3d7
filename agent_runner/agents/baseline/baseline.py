"""Baseline ML agent for MLE-bench competitions.

Started as `python3 baseline.py` with the MLEBENCH_* environment variables
(see common.Ctx). It writes the sample submission as submission.csv first
(always valid), then runs the task's handler - a small model suited to the
task's modality, from the modules next to this file - which replaces the
submission with its predictions. An exception in the handler, or running
past the internal deadline, leaves the sample-derived submission in place,
and the log says so.
"""
import os
import sys


def _reexec_deterministic():
    """Re-run the interpreter once with a fixed hash seed and thread settings,
    so that string hashing (set/dict order) and threading are the same from
    run to run."""
    cpus = os.environ.get("MLEBENCH_CPUS", "")
    if not (cpus.strip().isdigit() and int(cpus) > 0):
        cpus = str(len(os.sched_getaffinity(0)))
    # lightgbm and other n_jobs users get at most the granted cores
    # (OMP_NUM_THREADS and explicit num_threads, see models.n_jobs); BLAS stays
    # single-threaded: the matrices here are small, and OpenBLAS's spinning
    # threads cost ~10x the CPU time for no gain in wall time. Idle OpenMP
    # threads sleep instead of spinning.
    want = {"PYTHONHASHSEED": "0", "OMP_NUM_THREADS": cpus, "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1", "OMP_WAIT_POLICY": "PASSIVE"}
    if any(os.environ.get(k) != v for k, v in want.items()):
        env = dict(os.environ)
        env.update(want)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


_reexec_deterministic()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random  # noqa: E402
import signal  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import common  # noqa: E402
from common import log  # noqa: E402

# competition id -> "module.function". A handler takes the common.Ctx and
# writes the submission itself (common.write_df / write_rows), or raises
# common.NoModel to keep a sample-derived submission.
HANDLERS = {
    # tabular.py: tabular data, recommendations
    "new-york-city-taxi-fare-prediction": "tabular.nyc_taxi",
    "nomad2018-predict-transparent-conductors": "tabular.nomad2018",
    "tabular-playground-series-dec-2021": "tabular.tps_dec_2021",
    "tabular-playground-series-may-2022": "tabular.tps_may_2022",
    "leaf-classification": "tabular.leaf",
    "spaceship-titanic": "tabular.spaceship_titanic",
    "playground-series-s3e18": "tabular.s3e18",
    "ml2021spring-hw2": "tabular.ml2021spring",
    "ventilator-pressure-prediction": "tabular.ventilator",
    "champs-scalar-coupling": "tabular.champs",
    "osic-pulmonary-fibrosis-progression": "tabular.osic",
    "petfinder-pawpularity-score": "tabular.petfinder",
    "rsna-2022-cervical-spine-fracture-detection": "tabular.rsna_cervical",
    "h-and-m-personalized-fashion-recommendations": "tabular.hm_recommend",
    # series.py: signals, sequences, physical measurements
    "predict-volcanic-eruptions-ingv-oe": "series.volcano",
    "hms-harmful-brain-activity-classification": "series.hms",
    "seti-breakthrough-listen": "series.seti",
    "icecube-neutrinos-in-deep-ice": "series.icecube",
    "statoil-iceberg-classifier-challenge": "series.statoil",
    "stanford-covid-vaccine": "series.stanford_covid",
    "nfl-player-contact-detection": "series.nfl_contact",
    "smartphone-decimeter-2022": "series.smartphone",
    # text.py: TF-IDF + linear models, text normalisation
    "detecting-insults-in-social-commentary": "text.insults",
    "jigsaw-toxic-comment-classification-challenge": "text.jigsaw_toxic",
    "jigsaw-unintended-bias-in-toxicity-classification": "text.jigsaw_unintended",
    "spooky-author-identification": "text.spooky",
    "random-acts-of-pizza": "text.pizza",
    "learning-agency-lab-automated-essay-scoring-2": "text.essay_scoring",
    "lmsys-chatbot-arena": "text.lmsys",
    "movie-review-sentiment-analysis-kernels-only": "text.movie_review",
    "facebook-recruiting-iii-keyword-extraction": "text.keyword_extraction",
    "google-quest-challenge": "text.google_quest",
    "us-patent-phrase-to-phrase-matching": "text.patent_matching",
    "tweet-sentiment-extraction": "text.tweet_extraction",
    "text-normalization-challenge-english-language": "text.text_normalization",
    "text-normalization-challenge-russian-language": "text.text_normalization",
    # seq.py: structured text / sequence tasks
    "chaii-hindi-and-tamil-question-answering": "seq.chaii",
    "tensorflow2-question-answering": "seq.tf2_qa",
    "billion-word-imputation": "seq.billion_word",
    "AI4Code": "seq.ai4code",
    "multi-modal-gesture-recognition": "seq.gestures",
    # image.py: image classification / regression (incl. DICOM)
    "aerial-cactus-identification": "image.aerial_cactus",
    "aptos2019-blindness-detection": "image.aptos",
    "denoising-dirty-documents": "image.denoising",
    "dog-breed-identification": "image.dog_breed",
    "dogs-vs-cats-redux-kernels-edition": "image.dogs_vs_cats",
    "histopathologic-cancer-detection": "image.histopathologic",
    "plant-pathology-2020-fgvc7": "image.plant_pathology_2020",
    "plant-pathology-2021-fgvc8": "image.plant_pathology_2021",
    "ranzcr-clip-catheter-line-classification": "image.ranzcr",
    "siim-isic-melanoma-classification": "image.siim_isic",
    "rsna-breast-cancer-detection": "image.rsna_breast",
    "rsna-miccai-brain-tumor-radiogenomic-classification": "image.rsna_miccai",
    "cassava-leaf-disease-classification": "image.cassava",
    "paddy-disease-classification": "image.paddy",
    "plant-seedlings-classification": "image.plant_seedlings",
    "imet-2020-fgvc7": "image.imet",
    "hotel-id-2021-fgvc8": "image.hotel_id",
    "whale-categorization-playground": "image.whale",
    "herbarium-2020-fgvc7": "image.herbarium_2020",
    "herbarium-2021-fgvc8": "image.herbarium_2021",
    "herbarium-2022-fgvc9": "image.herbarium_2022",
    "inaturalist-2019-fgvc6": "image.inaturalist",
    "iwildcam-2019-fgvc6": "image.iwildcam_2019",
    "iwildcam-2020-fgvc7": "image.iwildcam_2020",
    "cdiscount-image-classification-challenge": "image.cdiscount",
    "bms-molecular-translation": "image.bms",
    "alaska2-image-steganalysis": "image.alaska2",
    "invasive-species-monitoring": "image.invasive_species",
    # seg.py / det3d.py: segmentation and detection
    "tgs-salt-identification-challenge": "seg.tgs_salt",
    "google-research-identify-contrails-reduce-global-warming": "seg.contrails",
    "hubmap-kidney-segmentation": "seg.hubmap",
    "uw-madison-gi-tract-image-segmentation": "seg.uw_madison",
    "vesuvius-challenge-ink-detection": "seg.vesuvius",
    "vinbigdata-chest-xray-abnormalities-detection": "seg.vinbigdata",
    "siim-covid19-detection": "seg.siim_covid",
    "kuzushiji-recognition": "seg.kuzushiji",
    "3d-object-detection-for-autonomous-vehicles": "det3d.lyft3d",
    # audio.py: spectra + linear models
    "mlsp-2013-birds": "audio.mlsp_birds",
    "the-icml-2013-whale-challenge-right-whale-redux": "audio.right_whale",
    "freesound-audio-tagging-2019": "audio.freesound",
    "tensorflow-speech-recognition-challenge": "audio.speech_commands",
}


class DeadlineExceeded(BaseException):
    """Raised by the soft-deadline alarm (a BaseException, so that handlers'
    `except Exception` clauses do not swallow it)."""


def _arm_deadlines(ctx):
    """Soft deadline (the internal one): an alarm interrupts the handler at
    its next Python instruction. Hard deadline (90% of the time limit): if a
    long native computation is still running, the process exits; the
    fallback submission written first is still there (writes are atomic)."""
    def soft(signum, frame):
        raise DeadlineExceeded()
    signal.signal(signal.SIGALRM, soft)
    signal.alarm(max(1, int(ctx.left())))

    def hard():
        log(f"baseline: hard time limit reached: exiting with the submission written so far "
            f"({'the model' if common.MODEL_WRITTEN else 'the sample-derived fallback'})")
        sys.stdout.flush()
        os._exit(0)
    t = threading.Timer(max(1.0, 0.9 * ctx.time_limit - (time.time() - common._T0)), hard)
    t.daemon = True
    t.start()


def main():
    ctx = common.Ctx()
    log(f"competition {ctx.cid}: seed {ctx.seed}, {ctx.cpus} cpus, time limit {ctx.time_limit:.0f}s "
        f"(internal deadline in {ctx.left():.0f}s)")
    random.seed(ctx.seed)
    common.write_fallback(ctx)
    log("wrote the sample submission as a fallback submission.csv")

    target = HANDLERS.get(ctx.cid)
    if target is None:
        log(f"baseline: no model for {ctx.cid}: submitting the sample submission's layout "
            f"with its placeholder predictions unchanged")
        return
    mod_name, fn_name = target.split(".")
    _arm_deadlines(ctx)
    try:
        import importlib
        mod = importlib.import_module(mod_name)
        if "numpy" in sys.modules:
            import models
            models.setup(ctx)
        getattr(mod, fn_name)(ctx)
        signal.alarm(0)
    except common.NoModel as e:
        signal.alarm(0)
        if not e.keep_submission:
            common.write_fallback(ctx)
        log(f"baseline: no model for {ctx.cid}: submitting the sample submission's layout with {e}")
    except DeadlineExceeded:
        if common.MODEL_WRITTEN:
            log("the internal deadline passed after the model's submission was written: keeping it")
        else:
            common.write_fallback(ctx)
            log(f"baseline: no model for {ctx.cid} (the internal deadline passed before the model finished): "
                f"submitting the sample submission's layout with its placeholder predictions unchanged")
    except Exception:
        signal.alarm(0)
        log("handler failed:\n" + traceback.format_exc())
        common.write_fallback(ctx)
        log(f"baseline: no model for {ctx.cid} (the handler failed): submitting the sample "
            f"submission's layout with its placeholder predictions unchanged")
    log(f"done in {time.time() - common._T0:.1f}s")


if __name__ == "__main__":
    main()
