package io.iam.asterix.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.asterix.api.common.AsterixHyracksIntegrationUtil;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.hyracks.api.application.ICCApplication;
import org.apache.hyracks.api.application.INCApplication;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.ini4j.Ini;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One AsterixDB 0.9.8 cluster controller and one node controller in the test JVM, configured by
 * {@code cc.conf} on the test class path. The applications are the ones {@code cc.conf} names as
 * {@code app.class}, as on a real cluster; AsterixDB's integration util would otherwise start its
 * own test NC application, whose persisted-resource registry needs an unpublished test jar.
 *
 * <p>Registered as a static {@code @RegisterExtension}, it starts a fresh cluster ({@link
 * #startFresh()}) before a test class and stops it, deleting its files, after.
 */
final class EmbeddedAsterix implements BeforeAllCallback, AfterAllCallback {

  /** Where the cluster keeps its storage, under the module's target directory. */
  static final String STORAGE = "target/asterix-embedded/io";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path conf;
  private final Util util;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** A cluster configured by {@code cc.conf}. */
  EmbeddedAsterix() {
    this("cc.conf");
  }

  /** A cluster configured by the test resource {@code confResource}. */
  EmbeddedAsterix(String confResource) {
    try {
      conf = Path.of(EmbeddedAsterix.class.getResource("/" + confResource).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    util = new Util(conf.toFile());
    AsterixHyracksIntegrationUtil.setStoragePath(STORAGE);
  }

  /** Starts the cluster; {@code clean} deletes what a previous run left. */
  void start(boolean clean) throws Exception {
    util.init(clean, conf.toString());
  }

  /**
   * Starts a cluster with nothing left from earlier runs, holding dataverse {@code Iam} and its
   * type {@code EventType}: records keyed by a {@code bigint id}, open to other fields.
   */
  void startFresh() throws Exception {
    start(true);
    sqlOk("CREATE DATAVERSE Iam; USE Iam; CREATE TYPE EventType AS { id: bigint };");
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    startFresh();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    stop(true);
  }

  /** Stops the cluster; {@code clean} deletes its storage and logs. */
  void stop(boolean clean) throws Exception {
    util.deinit(clean);
  }

  /** The NC's application context, for looking at its open indexes. */
  INcApplicationContext nc() {
    return (INcApplicationContext) util.ncs[0].getApplicationContext();
  }

  /** The open LSM indexes whose identifier (their directory) contains {@code part}. */
  List<ILSMIndex> openIndexes(String part) {
    return nc().getDatasetLifecycleManager().getOpenResources().stream()
        .filter(ILSMIndex.class::isInstance).map(ILSMIndex.class::cast)
        .filter(i -> i.getIndexIdentifier().contains(part)).toList();
  }

  /**
   * The NC's {@code GET /admin/storage/stats} (on its {@code nc.api.port}): one entry per index
   * partition, with its disk components' ids ({@code minId_maxId}) and sizes.
   */
  JsonNode storageStats() throws IOException, InterruptedException {
    String port = util.ini.get("nc/asterix_nc1", "nc.api.port");
    HttpRequest request = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/admin/storage/stats")).GET().build();
    return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
  }

  /** Runs SQL++ through the CC's query service and returns its JSON response, whatever the status. */
  JsonNode sql(String statement) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:19002/query/service"))
        .timeout(Duration.ofMinutes(5))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(
            "statement=" + URLEncoder.encode(statement, StandardCharsets.UTF_8)))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  /** Runs SQL++ that must succeed; returns its {@code results}. */
  JsonNode sqlOk(String statement) throws IOException, InterruptedException {
    JsonNode response = sql(statement);
    if (!"success".equals(response.path("status").asText())) {
      throw new AssertionError("SQL++ failed: " + response.path("errors") + "\n" + statement);
    }
    return response.path("results");
  }

  private static final class Util extends AsterixHyracksIntegrationUtil {
    private final Ini ini;

    Util(File conf) {
      try {
        ini = new Ini(conf);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    protected ICCApplication createCCApplication() {
      return (ICCApplication) instantiate(ini.get("cc", "app.class"));
    }

    @Override
    protected INCApplication createNCApplication() {
      return (INCApplication) instantiate(ini.get("nc", "app.class"));
    }

    private static Object instantiate(String className) {
      try {
        return Class.forName(className).getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot start " + className, e);
      }
    }
  }
}
