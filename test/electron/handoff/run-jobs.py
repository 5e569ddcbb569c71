# Runs generated Spark jobs one after another in one Python process, each as `python job.py` runs it (the job
# starts its own session and stops it); only the JVM is shared, which keeps a test file to one Spark launch.
# One line per job on stdout: DELTAPORT-JOB {"job": path, "ok": bool, "error": text, "seconds": n}.
import json
import runpy
import sys
import time
import traceback

for path in sys.argv[1:]:
    started = time.time()
    result = {"job": path, "ok": True}
    try:
        runpy.run_path(path, run_name="__main__")
    except BaseException as err:  # a job's sys.exit("...") too
        result = {"job": path, "ok": False, "error": "".join(traceback.format_exception_only(type(err), err)).strip()[-2000:]}
    result["seconds"] = round(time.time() - started, 1)
    print("DELTAPORT-JOB " + json.dumps(result), flush=True)
