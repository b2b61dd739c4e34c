package io.iam.bench.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scores of one JMH run, read from the file {@code -rf json -rff FILE} writes: an array with one
 * object per benchmark and parameter combination, each with {@code benchmark}, {@code mode}, an
 * optional {@code params} object and {@code primaryMetric.score} and {@code .scoreUnit}.
 */
final class JmhResults {

  /** The JMH modes in which a higher score is better; in the others (avgt, sample, ss) lower is. */
  static final String THROUGHPUT = "thrpt";

  /** One benchmark at one parameter combination. {@code params} is sorted by name. */
  record Key(String benchmark, String mode, Map<String, String> params) {

    /** The parameters as {@code name=value} pairs joined by commas, or "" without any. */
    String paramsText() {
      StringBuilder sb = new StringBuilder();
      params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
      return sb.toString();
    }

    /** The benchmark's class and method, without the package. */
    String shortName() {
      int method = benchmark.lastIndexOf('.');
      int type = method <= 0 ? -1 : benchmark.lastIndexOf('.', method - 1);
      return benchmark.substring(type + 1);
    }

    boolean higherIsBetter() {
      return mode.equals(THROUGHPUT);
    }
  }

  record Score(double score, double error, String unit) {}

  /** Thrown for a file that is missing, not JSON, or not shaped like JMH's output; names the file. */
  static final class BadResultsException extends Exception {
    BadResultsException(String message) {
      super(message);
    }
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JmhResults() {}

  /** The scores in {@code file}, in the file's order. */
  static Map<Key, Score> read(Path file) throws BadResultsException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new BadResultsException(file + ": no such file");
    } catch (IOException e) {
      throw new BadResultsException(file + ": cannot read it (" + e.getMessage() + ")");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new BadResultsException(file + ": not JSON (" + e.getOriginalMessage() + ")");
    }
    if (root == null || !root.isArray()) {
      throw new BadResultsException(file + ": expected a JSON array of JMH results (java ... -rf json)");
    }
    Map<Key, Score> scores = new LinkedHashMap<>();
    for (int i = 0; i < root.size(); i++) {
      JsonNode r = root.get(i);
      String where = file + ": result " + i;
      String benchmark = text(r, "benchmark", where);
      where += " (" + benchmark + ")";
      String mode = text(r, "mode", where);
      Map<String, String> params = new TreeMap<>();
      JsonNode p = r.get("params");
      if (p != null && !p.isNull()) {
        if (!p.isObject()) {
          throw new BadResultsException(where + ": field params is not an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          params.put(e.getKey(), e.getValue().asText());
        }
      }
      JsonNode metric = r.get("primaryMetric");
      if (metric == null || !metric.isObject()) {
        throw new BadResultsException(where + ": missing field primaryMetric");
      }
      JsonNode score = metric.get("score");
      if (score == null || !score.isNumber()) {
        throw new BadResultsException(where + ": field primaryMetric.score is missing or not a number");
      }
      JsonNode error = metric.get("scoreError");
      double err = error != null && error.isNumber() ? error.asDouble() : Double.NaN;
      String unit = text(metric, "scoreUnit", where + ": primaryMetric");
      Key key = new Key(benchmark, mode, params);
      if (scores.put(key, new Score(score.asDouble(), err, unit)) != null) {
        throw new BadResultsException(where + ": appears twice with the same mode and params");
      }
    }
    return scores;
  }

  private static String text(JsonNode o, String field, String where) throws BadResultsException {
    JsonNode v = o == null ? null : o.get(field);
    if (v == null || !v.isTextual()) {
      throw new BadResultsException(where + ": field " + field + " is missing or not a string");
    }
    return v.asText();
  }
}
