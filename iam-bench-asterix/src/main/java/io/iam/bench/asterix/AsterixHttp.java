package io.iam.bench.asterix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * AsterixDB's HTTP API as this store uses it: SQL++ through the CC's {@code /query/service} and
 * each NC's {@code /admin/storage/stats}. Thread-safe (one {@link HttpClient}).
 */
final class AsterixHttp {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI queryService;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** @param baseUrl the CC's API address, e.g. {@code http://127.0.0.1:19002} */
  AsterixHttp(String baseUrl) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    this.queryService = URI.create(base + "/query/service");
  }

  /**
   * Runs SQL++ and returns its {@code results}.
   *
   * @throws IOException with AsterixDB's error messages if the statement did not succeed
   */
  JsonNode sql(String statement) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(queryService)
        .timeout(Duration.ofMinutes(5))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(
            "statement=" + URLEncoder.encode(statement, StandardCharsets.UTF_8)))
        .build();
    JsonNode response = JSON.readTree(send(request));
    if (!"success".equals(response.path("status").asText())) {
      StringBuilder errors = new StringBuilder();
      for (JsonNode e : response.path("errors")) {
        errors.append(errors.length() == 0 ? "" : "; ").append(e.path("msg").asText());
      }
      throw new IOException("asterixdb: " + (errors.length() == 0 ? response.toString() : errors)
          + " [statement: " + abbreviate(statement) + "]");
    }
    return response.path("results");
  }

  /** An NC's {@code GET /admin/storage/stats}: one entry per index partition with its components. */
  JsonNode storageStats(String ncApiUrl) throws IOException {
    String base = ncApiUrl.endsWith("/") ? ncApiUrl.substring(0, ncApiUrl.length() - 1) : ncApiUrl;
    return JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + "/admin/storage/stats"))
        .timeout(Duration.ofMinutes(1)).GET().build()));
  }

  private String send(HttpRequest request) throws IOException {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("asterixdb: interrupted waiting for " + request.uri());
    }
  }

  private static String abbreviate(String statement) {
    return statement.length() <= 300 ? statement : statement.substring(0, 300) + "...";
  }
}
