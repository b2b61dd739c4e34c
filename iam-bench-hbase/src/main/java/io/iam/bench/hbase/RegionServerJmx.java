package io.iam.bench.hbase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.hbase.engine.IamStores;
import io.iam.hbase.metrics.StoreWriteObserver;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * A table's flushed and compacted bytes on a real cluster, and the writes HBase held back, read from
 * every live region server's JMX
 * over HTTP ({@code http://<host>:<info port>/jmx}), where iam-hbase's {@link StoreWriteObserver}
 * exports them: bean {@value #BEAN}, attributes {@code Iam.<table>.<family>.flushedBytes} and {@code
 * .compactedBytes} (Hadoop's metrics system capitalises the registry's {@code iam.} prefix), summed
 * over the server's regions of the table; HBase's own {@code updatesBlockedTime} and {@code
 * blockedRequestCount} come from bean {@value #SERVER_BEAN}. A server without an info port, without the observer, or
 * unreachable is reported as a problem and counts 0.
 */
final class RegionServerJmx {

  static final String BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Coprocessor.Region.CP_"
      + StoreWriteObserver.class.getName();

  /**
   * The table's bytes over the cluster.
   *
   * @param flushed bytes of flushed files
   * @param compacted bytes of compaction outputs
   * @param perServer {@code host:port -> flushed/compacted} as read
   * @param problems servers that could not be read, and why
   */
  record Written(long flushed, long compacted, Blocked blocked, List<String> perServer, List<String> problems) {}

  /** HBase's own server-wide metrics of writes held back (bean {@value #SERVER_BEAN}). */
  static final String SERVER_BEAN = "Hadoop:service=HBase,name=RegionServer,sub=Server";

  /**
   * Writes HBase held back, summed over region servers.
   *
   * @param updatesBlockedMillis HBase's {@code updatesBlockedTime}: time updates waited for the
   *     global memstore to fall below its high-water mark
   * @param blockedRequests HBase's {@code blockedRequestCount}: writes refused because a region's
   *     memstore was over its blocking size (the client retries them)
   */
  record Blocked(long updatesBlockedMillis, long blockedRequests) {

    /** What was blocked since {@code before}. */
    Blocked since(Blocked before) {
      return new Blocked(Math.max(0, updatesBlockedMillis - before.updatesBlockedMillis),
          Math.max(0, blockedRequests - before.blockedRequests));
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "HBase's updatesBlockedTime %,d ms, blockedRequestCount %,d",
          updatesBlockedMillis, blockedRequests);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private RegionServerJmx() {}

  /** Reads every live region server once. */
  static Written read(Admin admin, TableName table, String family) throws IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    String prefix = "Iam." + table.getNameAsString() + "." + family + ".";
    long flushed = 0;
    long compacted = 0;
    long blockedMillis = 0;
    long blockedRequests = 0;
    List<String> perServer = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (InfoServer s : infoServers(admin, problems)) {
      String host = s.host();
      int port = s.port();
      URI uri = beanUri(host, port, BEAN);
      try {
        JsonNode server = bean(http, beanUri(host, port, SERVER_BEAN));
        if (server != null) {
          blockedMillis += server.path("updatesBlockedTime").asLong(0);
          blockedRequests += server.path("blockedRequestCount").asLong(0);
        }
        JsonNode observer = bean(http, uri);
        if (observer == null) {
          problems.add(host + ":" + port + ": no bean " + BEAN + " (is StoreWriteObserver in"
              + " hbase.coprocessor.region.classes?)");
          continue;
        }
        long f = observer.path(prefix + "flushedBytes").asLong(0);
        long c = observer.path(prefix + "compactedBytes").asLong(0);
        flushed += f;
        compacted += c;
        perServer.add(host + ":" + port + " flushed " + f + " compacted " + c);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading " + uri);
      } catch (IOException ex) {
        problems.add(host + ":" + port + ": " + ex);
      }
    }
    return new Written(flushed, compacted, new Blocked(blockedMillis, blockedRequests), perServer, problems);
  }

  /** A live region server's info server. */
  record InfoServer(String host, int port) {}

  /** The live region servers' info servers; a server without one is added to {@code problems}. */
  private static List<InfoServer> infoServers(Admin admin, List<String> problems) throws IOException {
    List<InfoServer> servers = new ArrayList<>();
    for (Map.Entry<ServerName, ServerMetrics> e : admin.getClusterMetrics().getLiveServerMetrics().entrySet()) {
      String host = e.getKey().getHostname();
      int port = e.getValue().getInfoServerPort();
      if (port <= 0) {
        problems.add(host + ": no info port (hbase.regionserver.info.port)");
      } else {
        servers.add(new InfoServer(host, port));
      }
    }
    return servers;
  }

  /**
   * One store's tree as its region server's {@value IamStores#NAME} MBean shows it: the attributes
   * of {@code StoreTree} ({@code store}, {@code tree}, {@code depth}, {@code nodesPerLevel}, ...).
   */
  record TreeRow(InfoServer server, JsonNode tree) {

    /** {@code table/region/family}. */
    String store() {
      return tree.path("store").asText();
    }
  }

  /**
   * The trees of every store run by IAM's store engine on the live region servers, in server order.
   *
   * @param problems gets the servers that could not be read, and why
   */
  static List<TreeRow> trees(Admin admin, List<String> problems) throws IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    List<TreeRow> rows = new ArrayList<>();
    for (InfoServer s : infoServers(admin, problems)) {
      URI uri = beanUri(s.host(), s.port(), IamStores.NAME);
      try {
        JsonNode bean = bean(http, uri);
        if (bean != null) {
          for (JsonNode tree : bean.path("Stores")) {
            rows.add(new TreeRow(s, tree));
          }
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading " + uri);
      } catch (IOException ex) {
        problems.add(s.host() + ":" + s.port() + ": " + ex);
      }
    }
    return rows;
  }

  private static URI beanUri(String host, int port, String bean) {
    return URI.create("http://" + host + ":" + port + "/jmx?qry=" + URLEncoder.encode(bean, StandardCharsets.UTF_8));
  }

  /** The one bean {@code uri} asks for, or null if the server has none. */
  private static JsonNode bean(HttpClient http, URI uri) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode beans = JSON.readTree(response.body()).path("beans");
    return response.statusCode() != 200 || beans.isEmpty() ? null : beans.get(0);
  }

  /**
   * Reads until two readings {@code apart} apart agree (HBase publishes its metrics to JMX every 10 s,
   * so a reading right after a compaction can be behind), or the deadline passes; the last reading.
   */
  static Written settled(Admin admin, TableName table, String family, Duration apart, long deadlineNanos)
      throws IOException {
    Written last = read(admin, table, family);
    while (System.nanoTime() < deadlineNanos) {
      try {
        Thread.sleep(apart.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading region server metrics");
      }
      Written next = read(admin, table, family);
      if (next.flushed() == last.flushed() && next.compacted() == last.compacted()) {
        return next;
      }
      last = next;
    }
    return last;
  }
}
