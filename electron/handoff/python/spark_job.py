# The fixed part of every Spark job Deltaport writes: the session, the read at the pinned version (and the filter),
# and the ways of landing (JDBC through a staging table and one final transaction; a Parquet folder through a staging
# folder and one rename; a text file through one staged part file, copied after its header and renamed into place).
# The job's own settings (APP_NAME, TABLE_PATH, VERSION, ...) and staged_columns() come above this part in the script.

# Text forms of dates and times, as Deltaport writes them (the session's time zone is set to UTC below).
TIMESTAMP_UTC = "yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'"
TIMESTAMP_NTZ = "yyyy-MM-dd'T'HH:mm:ss.SSSSSS"
MYSQL_DATETIME = "yyyy-MM-dd HH:mm:ss.SSSSSS"
DATE = "yyyy-MM-dd"
JSON_OPTIONS = {
    "timestampFormat": TIMESTAMP_UTC,
    "timestampNTZFormat": TIMESTAMP_NTZ,
    "dateFormat": DATE,
    "ignoreNullFields": "false",
}

import os
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def session():
    """The running session (spark-submit, a notebook) or a new one; under plain python the packages come from
    Maven Central through spark.jars.packages."""
    owned = SparkSession.getActiveSession() is None
    spark = (
        SparkSession.builder.appName(APP_NAME)
        .config("spark.jars.packages", ",".join(PACKAGES))
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate()
    )
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    return spark, owned


def column(name):
    return F.col("`" + name.replace("`", "``") + "`")


def read(spark):
    source = spark.read.format("delta").option("versionAsOf", VERSION).load(TABLE_PATH)
    if WHERE is not None:
        source = source.where(WHERE)
    positional = source.select([column(name) for name in COLUMNS]).toDF(*POSITIONS)
    return positional.select(staged_columns())


def credentials():
    values = {}
    for option, variable in CREDENTIALS.items():
        if variable not in os.environ:
            sys.exit(f"deltaport job: set {variable} in the environment (the {option} for {TARGET})")
        values[option] = os.environ[variable]
    return values


def connect(spark):
    jvm = spark._jvm
    # Registered through Spark, which sees the jars that --packages or spark.jars.packages brought in.
    jvm.org.apache.spark.sql.execution.datasources.jdbc.DriverRegistry.register(JDBC_DRIVER)
    properties = jvm.java.util.Properties()
    for key, value in credentials().items():
        properties.setProperty(key, value)
    return jvm.java.sql.DriverManager.getConnection(JDBC_URL, properties)


def execute(connection, statements):
    statement = connection.createStatement()
    try:
        for sql in statements:
            statement.execute(sql)
    finally:
        statement.close()


def query_one(connection, sql, parameters=()):
    statement = connection.prepareStatement(sql)
    try:
        bind(statement, parameters)
        result = statement.executeQuery()
        return result.getObject(1) if result.next() else None
    finally:
        statement.close()


def bind(statement, parameters):
    for i, value in enumerate(parameters, start=1):
        if value is None:
            statement.setNull(i, -5)  # java.sql.Types.BIGINT
        elif isinstance(value, bool):
            statement.setBoolean(i, value)
        elif isinstance(value, int):
            statement.setLong(i, value)
        else:
            statement.setString(i, value)


def land_jdbc(spark, frame):
    connection = connect(spark)
    try:
        execute(connection, LEDGER_PREPARE)
        if LEDGER_READ and query_one(connection, LEDGER_READ, [JOB_KEY]) in (True, 1):
            print(f"deltaport job: already landed in {TARGET} (recorded in the exactly-once ledger); nothing written")
            return
        execute(connection, PREPARE)
    finally:
        connection.close()

    # Spark's JDBC writer commits each partition on its own, and a retried task writes its rows again: everything
    # goes to the staging table, which the target never sees until the final transaction.
    writer = frame.write.format("jdbc").mode("append")
    for key, value in dict(WRITE_OPTIONS, url=JDBC_URL, driver=JDBC_DRIVER, dbtable=STAGING, **credentials()).items():
        writer = writer.option(key, value)
    try:
        writer.save()
        rows = finish(spark)
    except BaseException:
        drop_staging(spark)
        raise
    print(f"deltaport job: landed {rows} rows in {TARGET}")


def finish(spark):
    """One transaction: the staged rows into the target, the ledger row, the staging table dropped. What the server
    cannot run inside a transaction (MySQL's DDL commits by itself) runs before it (BEFORE_FINISH) or after it
    (AFTER_FINISH)."""
    connection = connect(spark)
    try:
        execute(connection, BEFORE_FINISH)
        connection.setAutoCommit(False)
        try:
            rows = int(query_one(connection, COUNT_STAGED))
            execute(connection, FINISH)
            if LEDGER_WRITE:
                statement = connection.prepareStatement(LEDGER_WRITE)
                try:
                    bind(statement, [JOB_KEY, TARGET_TABLE, None, None, rows, rows, True])
                    statement.executeUpdate()
                finally:
                    statement.close()
            connection.commit()
        except BaseException:
            connection.rollback()
            raise
        connection.setAutoCommit(True)
        execute(connection, AFTER_FINISH)
        return rows
    finally:
        connection.close()


def drop_staging(spark):
    """After a failure the target is as it was; the staging table goes too (a rerun would drop it anyway)."""
    try:
        connection = connect(spark)
        try:
            execute(connection, [DROP_STAGING])
        finally:
            connection.close()
    # Any failure here is reported and left behind: the one being raised is what the user needs to see.
    except Exception as err:  # noqa: BLE001
        print(f"deltaport job: could not drop the staging table {STAGING}: {err}", file=sys.stderr)


def hadoop_path(spark, text):
    path = spark._jvm.org.apache.hadoop.fs.Path(text)
    return path, path.getFileSystem(spark._jsc.hadoopConfiguration())


def refuse_existing(spark):
    """As Deltaport does, an existing output is replaced only when the export was asked to replace it."""
    target, fs = hadoop_path(spark, OUTPUT_PATH)
    if fs.exists(target) and not REPLACE:
        sys.exit(f"deltaport job: {OUTPUT_PATH} already exists; make the job again with --force (or --mode overwrite) to replace it")


def replace_with(spark, built):
    target, fs = hadoop_path(spark, OUTPUT_PATH)
    if fs.exists(target):
        fs.delete(target, True)
    if not fs.rename(built, target):
        sys.exit(f"deltaport job: could not rename {built.toString()} to {OUTPUT_PATH}")


def land_folder(spark, frame):
    refuse_existing(spark)
    frame.write.mode("overwrite").format("parquet").save(STAGING_PATH)
    replace_with(spark, hadoop_path(spark, STAGING_PATH)[0])
    print(f"deltaport job: wrote {OUTPUT_PATH}")


def land_file(spark, frame):
    """One file: the lines in one part file beside PATH, copied after the header into PARTIAL_PATH, which is renamed
    to PATH only when complete."""
    refuse_existing(spark)
    fields = [F.col(name) for name in POSITIONS]
    if LINE_PARTS:
        parts = [part for key, field in zip(LINE_PARTS, fields) for part in (F.lit(key), field)]
        line = F.concat(*parts, F.lit("}"))
    else:
        line = F.concat_ws(",", *fields)
    jvm = spark._jvm
    staging, fs = hadoop_path(spark, STAGING_PATH)
    partial = jvm.org.apache.hadoop.fs.Path(PARTIAL_PATH)
    try:
        frame.select(line.alias("value")).coalesce(1).write.mode("overwrite").format("text").save(STAGING_PATH)
        files = sorted(s.getPath().toString() for s in fs.listStatus(staging) if s.getPath().getName().startswith("part-"))
        # A file system of its own, so that no checksum file is left beside PATH.
        out_fs = jvm.org.apache.hadoop.fs.FileSystem.newInstance(partial.toUri(), spark._jsc.hadoopConfiguration())
        try:
            out_fs.setWriteChecksum(False)
            out = out_fs.create(partial, True)
            try:
                out.write(bytearray(HEADER.encode("utf-8")))
                for name in files:
                    part = fs.open(jvm.org.apache.hadoop.fs.Path(name))
                    try:
                        jvm.org.apache.hadoop.io.IOUtils.copyBytes(part, out, 1 << 16, False)
                    finally:
                        part.close()
            finally:
                out.close()
        finally:
            out_fs.close()
        replace_with(spark, partial)
    finally:
        if fs.exists(partial):
            fs.delete(partial, False)
        if fs.exists(staging):
            fs.delete(staging, True)
    print(f"deltaport job: wrote {OUTPUT_PATH}")


def main():
    spark, owned = session()
    try:
        frame = read(spark)
        if SINK == "jdbc":
            land_jdbc(spark, frame)
        elif SINK == "folder":
            land_folder(spark, frame)
        else:
            land_file(spark, frame)
    finally:
        if owned:
            spark.stop()
