package io.iam.bench.util;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.function.BiConsumer;

/** The machine-readable results of the subcommands: JSON objects written on one line. */
public final class Json {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** A new, empty object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** {@code o} as one line of JSON. */
  public static String line(ObjectNode o) {
    try {
      return MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds an array {@code name} to {@code o} holding one object per item, filled by {@code fields}. */
  public static <T> ArrayNode array(ObjectNode o, String name, Iterable<T> items, BiConsumer<ObjectNode, T> fields) {
    ArrayNode array = o.putArray(name);
    for (T item : items) {
      fields.accept(array.addObject(), item);
    }
    return array;
  }

  /** Puts {@code value}, or null if it is NaN or infinite (JSON has neither). */
  public static ObjectNode putFinite(ObjectNode o, String name, double value) {
    return Double.isFinite(value) ? o.put(name, value) : o.putNull(name);
  }
}
