package io.iam.bench.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import io.iam.bench.load.LevelMetrics;
import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.load.LoadTarget;
import io.iam.bench.load.SettleTimeoutException;
import io.iam.bench.load.SettleWaiter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMemoryComponent;

/**
 * Apache AsterixDB as a store of {@code iam load} and {@code iam ycsb}: one dataset, written and read
 * through SQL++ over HTTP ({@code /query/service}).
 *
 * <p><b>Where.</b> By default an AsterixDB embedded in this JVM ({@link EmbeddedAsterix}, one per JVM,
 * IAM's policies installed), with a fresh dataset per opened store, dropped when the store closes.
 * {@code -o ncs=N} starts it with N node controllers (one partition each; default 1), and {@code -o
 * home=DIR} keeps its files in DIR, where a later start finds them again (a named dataset there is
 * used as it is).
 * With {@code -o url=http://host:19002} a running cluster instead; {@code -o nc-api=URL,URL,...} names
 * its NCs' API addresses ({@code nc.api.port}) for the component sizes. {@code -o dataverse=} (default
 * {@value #DEFAULT_DATAVERSE}) and {@code -o dataset=} (default a fresh {@code ycsb_…} name) name the
 * dataset; a dataset that exists is used as it is (so several clients can share one), one that does
 * not is created. A cluster's dataset is never dropped.
 *
 * <p><b>Merge policy.</b> {@code -o policy=NAME}, and every other option is the policy's
 * ({@link MergePolicyClause}). {@code -o compression=none|snappy} sets the dataset's page compression
 * ({@code storage-block-compression}); without it the dataset takes the instance's default (snappy in
 * AsterixDB 0.9.8).
 *
 * <p><b>Records.</b> A closed type {@code {k: string, v: string}} with primary key {@code k}: {@code
 * k} is the key's bytes in lower-case hex (string order is then the keys' unsigned byte order, and
 * any bytes round-trip), {@code v} the value's bytes in base64. With {@code -o key-prefix=P} every
 * key is stored as P's bytes followed by the key's, and scans stay within P: clients that share a
 * dataset each get a key range of their own.
 *
 * <p><b>Writes</b> are buffered, newest value per key, and sent as one {@code UPSERT} of up to {@code
 * -o batch=N} records when the buffer is full, before a scan or a delete, and at {@link #settle()}.
 * {@code -o ingest=} chooses how ({@link Ingest}): embedded, by default, the batch is written to a
 * local file that an external dataset reads ({@value #DEFAULT_FILE_BATCH} records a batch); against
 * a cluster the records are SQL++ literals in the statement ({@value #DEFAULT_STATEMENT_BATCH}).
 * A {@link #get} of a buffered key answers from the buffer; others run {@code SELECT}. {@link #scan} is {@code SELECT … WHERE k >= … ORDER BY k LIMIT n}; {@link
 * #delete} is {@code DELETE}. Thread-safe: the buffer is guarded by its monitor, held while a batch is
 * sent, so a reader never misses a record that is on its way.
 *
 * <p><b>Metrics.</b> Embedded: the NC counts every flush and merge of the dataset's indexes with the
 * size of the component it wrote ({@link IoCounter}), so write amplification is exact. Against a
 * cluster: the components seen in {@code /admin/storage/stats} at each batch and while settling, each
 * counted once, which is a lower bound (a component merged away between two looks is missed); the
 * engine stats say so. Disk bytes are the current components' sizes from the storage stats.
 */
public final class AsterixTarget implements LoadTarget {

  /** The store's name. */
  public static final String NAME = "asterixdb";
  static final String URL = "url";
  static final String NC_API = "nc-api";
  static final String DATAVERSE = "dataverse";
  static final String DATASET = "dataset";
  static final String BATCH = "batch";
  static final String KEY_PREFIX = "key-prefix";
  static final String INGEST = "ingest";
  static final String NCS = "ncs";
  static final String HOME = "home";
  static final String COMPRESSION = "compression";
  /** The page compression schemes AsterixDB 0.9.8 has. */
  static final List<String> COMPRESSION_SCHEMES = List.of("none", "snappy");
  static final String DEFAULT_DATAVERSE = "IamYcsb";
  /** Records per UPSERT statement that lists them (larger statements compile slower than linearly). */
  static final int DEFAULT_STATEMENT_BATCH = 500;
  /** Records per UPSERT from a batch file. */
  static final int DEFAULT_FILE_BATCH = 10_000;
  /**
   * How long the embedded NC's counts must stay the same after it looked idle: a merge is scheduled
   * as the flush before it completes, so idle and settled can be a moment apart.
   */
  private static final long SETTLE_QUIET_MILLIS = 250;
  private static final Set<String> OWN_OPTIONS = Set.of(URL, NC_API, DATAVERSE, DATASET, BATCH, KEY_PREFIX, INGEST, NCS,
      HOME, COMPRESSION);
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");
  private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final HexFormat HEX = HexFormat.of();

  private final LoadConfig config;
  private final AsterixHttp http;
  private final EmbeddedAsterix embedded;
  private final List<String> ncApis;
  private final String dataverse;
  private final String dataset;
  private final boolean dropOnClose;
  private final int batch;
  /** How a batch reaches AsterixDB. */
  private final Ingest ingest;
  private final MergePolicyClause policy;
  /** {@code -o compression}'s scheme, or null for the instance's default. */
  private final String compression;
  /** {@code -o key-prefix}'s bytes in hex, put before every key; empty without one. */
  private final String prefixHex;
  private final Map<String, String> buffer = new LinkedHashMap<>();
  private final String batchSuffix = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
  /** {@link Ingest#FILE}: the file each batch is written to before it is upserted. */
  private Path batchFile;
  private final LongAdder userBytes = new LongAdder();
  /** Cluster mode: every component seen, by index partition and id, with its size. */
  private final Map<String, Long> componentsSeen = new ConcurrentHashMap<>();
  private boolean closed;

  private AsterixTarget(LoadConfig config, AsterixHttp http, EmbeddedAsterix embedded, List<String> ncApis,
      String dataverse, String dataset, boolean dropOnClose, int batch, Ingest ingest, MergePolicyClause policy,
      String compression, String prefixHex) {
    this.config = config;
    this.http = http;
    this.embedded = embedded;
    this.ncApis = ncApis;
    this.dataverse = dataverse;
    this.dataset = dataset;
    this.dropOnClose = dropOnClose;
    this.batch = batch;
    this.ingest = ingest;
    this.policy = policy;
    this.compression = compression;
    this.prefixHex = prefixHex;
  }

  /** The {@link LoadTarget.Factory} of {@value #NAME}; {@code dir} is not used (AsterixDB keeps its own files). */
  public static AsterixTarget open(Path dir, LoadConfig config) throws IOException {
    Map<String, String> own = new TreeMap<>();
    Map<String, String> policyOptions = new LinkedHashMap<>();
    config.engineOptions().forEach((k, v) -> {
      if (OWN_OPTIONS.contains(k)) {
        own.put(k, v.trim());
      } else if (!LoadConfig.POLICY.equals(k)) {
        policyOptions.put(k, v);
      }
    });
    MergePolicyClause policy = MergePolicyClause.of(config.engineOptions().get(LoadConfig.POLICY), policyOptions);
    String dataverse = identifier(DATAVERSE, own.getOrDefault(DATAVERSE, DEFAULT_DATAVERSE));
    boolean named = own.containsKey(DATASET);
    String dataset = identifier(DATASET, named ? own.get(DATASET)
        : "ycsb_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    boolean cluster = own.containsKey(URL);
    Ingest ingest = Ingest.of(own.get(INGEST), cluster);
    int batch = batch(own.get(BATCH), ingest);
    String prefix = own.getOrDefault(KEY_PREFIX, "");
    if (!prefix.isEmpty() && !PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException("asterixdb: -o " + KEY_PREFIX + "='" + prefix
          + "' must be 1 to 64 letters, digits, '_', '.' or '-'");
    }
    String compression = own.get(COMPRESSION);
    if (compression != null && !COMPRESSION_SCHEMES.contains(compression)) {
      throw new IllegalArgumentException("asterixdb: -o " + COMPRESSION + "='" + compression + "' is not one of: "
          + String.join(", ", COMPRESSION_SCHEMES));
    }
    String url = own.get(URL);
    EmbeddedAsterix embedded = null;
    List<String> ncApis = new ArrayList<>();
    if (url == null) {
      if (own.containsKey(NC_API)) {
        throw new IllegalArgumentException("asterixdb: -o " + NC_API + " needs -o " + URL + " (the embedded NC's is known)");
      }
      embedded = EmbeddedAsterix.acquire(config.memtableBytes(), config.cacheBytes(), 0, nodes(own.get(NCS)),
          own.containsKey(HOME) ? Path.of(own.get(HOME)) : null);
      url = embedded.apiUrl();
      ncApis.addAll(embedded.ncApiUrls().values());
    } else if (own.containsKey(NCS) || own.containsKey(HOME)) {
      throw new IllegalArgumentException("asterixdb: -o " + (own.containsKey(NCS) ? NCS : HOME)
          + " is an option of the embedded instance; a cluster given by -o " + URL + " has its own");
    } else if (own.containsKey(NC_API)) {
      for (String u : own.get(NC_API).split(",")) {
        if (!u.isBlank()) {
          ncApis.add(u.trim());
        }
      }
    }
    AsterixTarget t = new AsterixTarget(config, new AsterixHttp(url), embedded, List.copyOf(ncApis), dataverse,
        dataset, embedded != null && !named, batch, ingest, policy, compression,
        HEX.formatHex(prefix.getBytes(StandardCharsets.US_ASCII)));
    try {
      t.create();
    } catch (IOException | RuntimeException e) {
      if (embedded != null) {
        EmbeddedAsterix.release();
      }
      throw e;
    }
    return t;
  }

  private static String identifier(String option, String value) {
    if (!IDENTIFIER.matcher(value).matches()) {
      throw new IllegalArgumentException("asterixdb: -o " + option + "='" + value
          + "' is not a plain name (a letter, then letters, digits or _)");
    }
    return value;
  }

  /** {@code -o ncs}: 0 (the running instance's, or one) when not given. */
  private static int nodes(String value) {
    if (value == null) {
      return 0;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= EmbeddedAsterix.MAX_NODES) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("asterixdb: -o " + NCS + "='" + value + "' is out of range: allowed 1 to "
        + EmbeddedAsterix.MAX_NODES);
  }

  private static int batch(String value, Ingest ingest) {
    if (value == null) {
      return ingest == Ingest.FILE ? DEFAULT_FILE_BATCH : DEFAULT_STATEMENT_BATCH;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= 100_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("asterixdb: -o " + BATCH + "='" + value + "' is out of range: allowed 1 to 100000");
  }

  private void create() throws IOException {
    http.sql("CREATE DATAVERSE " + dataverse + " IF NOT EXISTS; USE " + dataverse + ";"
        + " CREATE TYPE KvType IF NOT EXISTS AS CLOSED { k: string, v: string };"
        + " CREATE DATASET " + dataset + "(KvType) IF NOT EXISTS PRIMARY KEY k" + withClause() + ";");
    if (ingest == Ingest.FILE) {
      batchFile = Files.createTempFile("iam-asterixdb-batch-", ".csv");
      http.sql(use() + "CREATE EXTERNAL DATASET " + batchDataset() + "(KvType) USING localfs ((\"path\"=\"127.0.0.1://"
          + batchFile.toAbsolutePath() + "\"),(\"format\"=\"delimited-text\"),(\"delimiter\"=\",\"));");
    }
  }

  /** The dataset's {@code WITH} clause: its merge policy and page compression, if given; else empty. */
  private String withClause() {
    List<String> fields = new ArrayList<>();
    policy.field().ifPresent(fields::add);
    if (compression != null) {
      fields.add("\"storage-block-compression\": {\"scheme\": \"" + compression + "\"}");
    }
    return fields.isEmpty() ? "" : " WITH {" + String.join(", ", fields) + "}";
  }

  /**
   * The external dataset over {@link #batchFile}: one per store, so that stores sharing a dataset,
   * or a store opened again on the files of one that was killed, never meet another's.
   */
  private String batchDataset() {
    return dataset + "_batch_" + batchSuffix;
  }

  private String use() {
    return "USE " + dataverse + "; ";
  }

  /** The embedded instance this store writes, or null against a cluster. */
  EmbeddedAsterix embedded() {
    return embedded;
  }

  /** The dataverse and the dataset this store writes. */
  String dataverse() {
    return dataverse;
  }

  String dataset() {
    return dataset;
  }

  /** The primary key of {@code key}: the prefix, then the key, in hex. */
  private String k(byte[] key) {
    return prefixHex + HEX.formatHex(key);
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    String k = k(key);
    String v = Base64.getEncoder().encodeToString(value);
    synchronized (buffer) {
      buffer.remove(k);
      buffer.put(k, v);
      if (buffer.size() >= batch) {
        flushBufferLocked();
      }
    }
    userBytes.add(key.length + value.length);
  }

  /**
   * Puts are thread-safe, one at a time: each holds the buffer's monitor (and sends a full batch
   * under it), and the user bytes are a {@link LongAdder}.
   */
  @Override
  public boolean concurrentPuts() {
    return true;
  }

  /** Sends the buffered records as one UPSERT; the caller holds the buffer's monitor. */
  private void flushBufferLocked() throws IOException {
    if (buffer.isEmpty()) {
      return;
    }
    if (ingest == Ingest.FILE) {
      StringBuilder lines = new StringBuilder(buffer.size() * 1500);
      for (Map.Entry<String, String> e : buffer.entrySet()) {
        lines.append(e.getKey()).append(',').append(e.getValue()).append('\n');
      }
      Files.writeString(batchFile, lines, StandardCharsets.US_ASCII);
      http.sql(use() + "UPSERT INTO " + dataset + " (SELECT VALUE b FROM " + batchDataset() + " b);");
    } else {
      StringBuilder s = new StringBuilder(use()).append("UPSERT INTO ").append(dataset).append(" ([");
      boolean first = true;
      for (Map.Entry<String, String> e : buffer.entrySet()) {
        s.append(first ? "" : ",").append("{\"k\":\"").append(e.getKey()).append("\",\"v\":\"").append(e.getValue())
            .append("\"}");
        first = false;
      }
      http.sql(s.append("]);").toString());
    }
    buffer.clear();
    if (embedded == null) {
      observeComponents();
    }
  }

  /** Sends the buffered records now. */
  void flushBuffer() throws IOException {
    synchronized (buffer) {
      flushBufferLocked();
    }
  }

  /** Sends the buffered records as one more batch, so that the next YCSB phase reads them from AsterixDB. */
  @Override
  public void sendHeldWrites() throws IOException {
    flushBuffer();
  }

  /** The records the dataset holds in AsterixDB, the write buffer left out. */
  long recordsInDataset() throws IOException {
    JsonNode rows = http.sql(use() + "SELECT VALUE COUNT(*) FROM " + dataset + " d;");
    return rows.isEmpty() ? 0 : rows.get(0).asLong();
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    String k = k(key);
    synchronized (buffer) {
      String v = buffer.get(k);
      if (v != null) {
        return Base64.getDecoder().decode(v);
      }
    }
    JsonNode rows = http.sql(use() + "SELECT VALUE d.v FROM " + dataset + " d WHERE d.k = \"" + k + "\";");
    return rows.isEmpty() ? null : Base64.getDecoder().decode(rows.get(0).asText());
  }

  @Override
  public void delete(byte[] key) throws IOException {
    String k = k(key);
    synchronized (buffer) {
      flushBufferLocked();
      http.sql(use() + "DELETE FROM " + dataset + " d WHERE d.k = \"" + k + "\";");
    }
  }

  @Override
  public int scan(byte[] start, int limit, Entries entries) throws IOException {
    flushBuffer();
    // With a prefix, the scan stays within it: "g" sorts after every hex digit.
    String end = prefixHex.isEmpty() ? "" : " AND d.k < \"" + prefixHex + "g\"";
    JsonNode rows = http.sql(use() + "SELECT d.k, d.v FROM " + dataset + " d WHERE d.k >= \"" + k(start) + "\"" + end
        + " ORDER BY d.k LIMIT " + limit + ";");
    for (JsonNode row : rows) {
      entries.accept(HEX.parseHex(row.path("k").asText().substring(prefixHex.length())),
          Base64.getDecoder().decode(row.path("v").asText()));
    }
    return rows.size();
  }

  /**
   * Sends the buffered records, flushes the memory component and waits, at most {@link
   * LoadConfig#settleTimeout()}, until no flush or merge of the dataset runs. Embedded, the NC is
   * asked to flush and the counted flushes and merges must be done and stay done for a moment (a
   * merge is scheduled as a flush ends). Against a cluster, AsterixDB 0.9.8 has no flush request over
   * HTTP: the memory component stays, and the wait is for the storage stats to stop changing.
   */
  @Override
  public void settle() throws IOException {
    flushBuffer();
    if (embedded == null) {
      // Nothing to ask the cluster: "a compaction pending" until the bytes seen stop growing.
      SettleWaiter.of(NAME, config.settleTimeout()).await(() -> {
        observeComponents();
        return new SettleWaiter.Work(false, 0, true, 0,
            componentsSeen.values().stream().mapToLong(Long::longValue).sum());
      });
      return;
    }
    embedded.flushAll();
    long deadline = System.nanoTime() + config.settleTimeout().toNanos();
    long[] last = null;
    while (true) {
      SettleWaiter.of(NAME, Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))).await(this::embeddedWork);
      long[] now = IoCounter.of(dataverse, dataset);
      if (Arrays.equals(now, last)) {
        return;
      }
      if (System.nanoTime() >= deadline) {
        throw new SettleTimeoutException(NAME + ": flushes and merges still starting after " + config.settleTimeout());
      }
      last = now;
      try {
        Thread.sleep(SETTLE_QUIET_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(NAME + ": interrupted while settling");
      }
    }
  }

  private SettleWaiter.Work embeddedWork() {
    boolean modified = false;
    for (ILSMIndex index : embedded.openIndexes(dataverse, dataset)) {
      for (ILSMMemoryComponent m : index.getMemoryComponents()) {
        modified |= m.isModified();
      }
    }
    long[] c = IoCounter.of(dataverse, dataset);
    return new SettleWaiter.Work(modified && c[4] == 0, (int) c[4], false, (int) c[5], c[1] + c[3]);
  }

  /** Cluster mode: remembers every component the NCs list now for this dataset. */
  private void observeComponents() throws IOException {
    for (Component c : components()) {
      componentsSeen.putIfAbsent(c.key(), c.size());
    }
  }

  /** One disk component of the dataset as the storage stats list it. */
  private record Component(String nc, String index, String partition, String id, long size) {
    String key() {
      return nc + "|" + index + "|" + partition + "|" + id;
    }
  }

  /** The dataset's disk components now, from every NC's {@code /admin/storage/stats}. */
  private List<Component> components() throws IOException {
    List<Component> out = new ArrayList<>();
    for (String nc : ncApis) {
      for (JsonNode index : http.storageStats(nc)) {
        if (!dataset.equals(index.path("dataset").asText())
            || (index.has("dataverse") && !dataverse.equals(index.path("dataverse").asText()))) {
          continue;
        }
        for (JsonNode c : index.path("components")) {
          out.add(new Component(nc, index.path("index").asText(), index.path("partition").asText(),
              c.path("id").asText(), c.path("size").asLong()));
        }
      }
    }
    return out;
  }

  @Override
  public LoadMetrics metrics() throws IOException {
    List<Component> now = components();
    long disk = now.stream().mapToLong(Component::size).sum();
    long flushBytes;
    long mergeBytes;
    StringBuilder stats = new StringBuilder();
    stats.append("dataset ").append(dataverse).append('.').append(dataset).append(" on ")
        .append(embedded == null ? "the cluster" : "embedded AsterixDB (" + embedded.home() + ")").append('\n');
    stats.append(describePolicy()).append('\n');
    if (embedded != null) {
      long[] c = IoCounter.of(dataverse, dataset);
      flushBytes = c[1];
      mergeBytes = c[3];
      stats.append(String.format("flushes %d (%d bytes), merges %d (%d bytes): every one counted by the NCs%n",
          c[0], c[1], c[2], c[3]));
      stats.append(String.format("memory-component budget %d bytes (global), buffer cache %d bytes%n",
          embedded.memoryBudget(), embedded.bufferCache()));
      if (embedded.nodes().size() > 1) {
        stats.append(perNode(now));
      }
    } else {
      observeComponents();
      Set<String> current = new HashSet<>();
      now.forEach(c -> current.add(c.key()));
      flushBytes = 0;
      mergeBytes = 0;
      for (Map.Entry<String, Long> e : componentsSeen.entrySet()) {
        String id = e.getKey().substring(e.getKey().lastIndexOf('|') + 1);
        String[] range = id.split("_");
        if (range.length == 2 && range[0].equals(range[1])) {
          flushBytes += e.getValue();
        } else {
          mergeBytes += e.getValue();
        }
      }
      stats.append(String.format("components seen in /admin/storage/stats of %s: %d (%d now); bytes written are"
          + " a lower bound (components merged away between two looks are missed)%n", ncApis, componentsSeen.size(),
          current.size()));
    }
    stats.append("components now:");
    for (Component c : now) {
      stats.append(' ').append(c.id()).append('=').append(c.size());
    }
    List<LevelMetrics> levels = List.of(LevelMetrics.of(0, now.size(), disk, flushBytes + mergeBytes, userBytes.sum()));
    return new LoadMetrics(userBytes.sum(), flushBytes, mergeBytes, disk, levels, stats.toString());
  }

  /**
   * A line per NC of the embedded instance: what its partition flushed and merged, its write
   * amplification, and its components now.
   */
  private String perNode(List<Component> now) {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, String> node : embedded.ncApiUrls().entrySet()) {
      long[] c = IoCounter.of(dataverse, dataset, node.getKey());
      List<Component> mine = now.stream().filter(x -> x.nc().equals(node.getValue())).toList();
      s.append(String.format(java.util.Locale.ROOT,
          "%s: flushes %d (%d bytes), merges %d (%d bytes), write amplification %.3f, components %d (%d bytes)%n",
          node.getKey(), c[0], c[1], c[2], c[3], c[1] == 0 ? 0.0 : (double) (c[1] + c[3]) / c[1], mine.size(),
          mine.stream().mapToLong(Component::size).sum()));
    }
    return s.toString();
  }

  /** The dataset's merge policy and its parameters, as AsterixDB's metadata holds them. */
  String describePolicy() throws IOException {
    JsonNode ds = policyRow();
    StringBuilder s = new StringBuilder("merge policy ").append(ds.path("CompactionPolicy").asText()).append(" {");
    boolean first = true;
    for (JsonNode p : ds.path("CompactionPolicyProperties")) {
      s.append(first ? "" : ", ").append(p.path("Name").asText()).append('=').append(p.path("Value").asText());
      first = false;
    }
    return s.append("} (Metadata.Dataset)").toString();
  }

  /** {@code Metadata.Dataset}'s row of this dataset. */
  JsonNode policyRow() throws IOException {
    JsonNode rows = http.sql("SELECT VALUE ds FROM Metadata.`Dataset` ds WHERE ds.DataverseName = \"" + dataverse
        + "\" AND ds.DatasetName = \"" + dataset + "\";");
    if (rows.isEmpty()) {
      throw new IOException(NAME + ": no Metadata.Dataset row for " + dataverse + "." + dataset);
    }
    return rows.get(0);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      flushBuffer();
      if (batchFile != null) {
        http.sql(use() + "DROP DATASET " + batchDataset() + " IF EXISTS;");
        Files.deleteIfExists(batchFile);
      }
      if (dropOnClose) {
        http.sql("USE " + dataverse + "; DROP DATASET " + dataset + " IF EXISTS;");
      }
    } finally {
      if (embedded != null) {
        EmbeddedAsterix.release();
      }
    }
  }
}
