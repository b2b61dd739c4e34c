package io.iam.bench.jmh;

import io.iam.core.fs.Fs;
import io.iam.core.fs.LocalFs;
import io.iam.core.wal.LogWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Write-ahead log appends of 1 KiB records through {@link LogWriter} on {@link LocalFs}, as the
 * engine logs a write batch. With {@code sync=true} every append is followed by {@link
 * LogWriter#sync()}, as a write with {@code WriteOptions.sync} is: the score is then the disk's
 * fsync rate, not the encoder's speed, and depends entirely on the device under {@code
 * java.io.tmpdir}. Each iteration writes a new log file, deleted after it, so the disk use stays
 * bounded by one iteration's appends.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WalAppendBenchmark extends SuiteBenchmark {

  private static final int RECORD_BYTES = 1024;

  @Param({"false", "true"})
  public boolean sync;

  private Path dir;
  private Path path;
  private LogWriter log;
  private int fileNumber;
  private final byte[] record = new byte[RECORD_BYTES];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = BenchFixtures.tempDir("wal-bench");
    new SplittableRandom(1).nextBytes(record);
  }

  @Setup(Level.Iteration)
  public void openLog() throws IOException {
    path = dir.resolve(String.format("%06d.log", ++fileNumber));
    log = new LogWriter(LocalFs.INSTANCE.open(path, Fs.Mode.CREATE_NEW), path, 0);
  }

  @TearDown(Level.Iteration)
  public void closeLog() throws IOException {
    log.close();
    LocalFs.INSTANCE.delete(path);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    BenchFixtures.deleteTree(dir);
  }

  @Benchmark
  public long append() throws IOException {
    log.addRecord(record);
    if (sync) {
      log.sync();
    }
    return log.size();
  }
}
