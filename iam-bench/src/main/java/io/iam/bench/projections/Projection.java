package io.iam.bench.projections;

import java.nio.ByteBuffer;

/**
 * The three projections of the Min-Max paper's column-store setup (§5, after C-Store/Vertica), each
 * loaded into a store of its own: the columns it groups, and the attribute it is sorted on.
 *
 * <p>Keys are order-preserving byte encodings: a long becomes 8 big-endian bytes with its sign bit
 * flipped, so that the stores' unsigned byte order is the numbers' order. Projection 1's key is the
 * ID alone; Projections 2 and 3 append the ID to their attribute, which makes keys unique and
 * orders equal attributes by arrival. A value holds the projection's other columns, 8 bytes each.
 */
public enum Projection {
  /** 29 columns, keyed on the ID. */
  P1("id", 29),
  /** 4 columns, keyed on trip_distance, then the ID. */
  P2("trip_distance", 4),
  /** 5 columns, keyed on total_amount, then the ID. */
  P3("total_amount", 5);

  private static final int LONG = Long.BYTES;

  private final String attribute;
  private final int columns;

  Projection(String attribute, int columns) {
    this.attribute = attribute;
    this.columns = columns;
  }

  /** The column the projection is keyed on. */
  public String attribute() {
    return attribute;
  }

  /** Columns in the projection, the keyed one included. */
  public int columns() {
    return columns;
  }

  /** "P1", "P2", "P3": the store's subdirectory and the name in reports. */
  public String label() {
    return name();
  }

  /** Trip {@code id}'s value of the attribute this projection is keyed on. */
  public long attributeOf(TaxiTrips trips, long id) {
    return switch (this) {
      case P1 -> id;
      case P2 -> trips.distance(id);
      case P3 -> trips.amount(id);
    };
  }

  /** This projection's attribute for trips 0 … {@code records − 1}, in arrival order. */
  public long[] attributes(TaxiTrips trips, int records) {
    long[] values = new long[records];
    for (int i = 0; i < records; i++) {
      values[i] = attributeOf(trips, i);
    }
    return values;
  }

  /** The key of trip {@code id} in this projection. */
  public byte[] key(TaxiTrips trips, long id) {
    return this == P1 ? encode(id) : encode(attributeOf(trips, id), id);
  }

  /**
   * The first key a range over attribute values [{@code lo}, …] holds: before every key with
   * attribute {@code lo}.
   */
  public byte[] rangeStart(long lo) {
    return this == P1 ? encode(lo) : encode(lo, Long.MIN_VALUE);
  }

  /** The last possible key a range over attribute values […, {@code hi}] holds. */
  public byte[] rangeEnd(long hi) {
    return this == P1 ? encode(hi) : encode(hi, Long.MAX_VALUE);
  }

  /** Trip {@code id}'s other columns: the other two measures where the projection has them, then filler. */
  public byte[] value(TaxiTrips trips, long id) {
    ByteBuffer b = ByteBuffer.allocate((columns - 1) * LONG);
    for (int c = 0; c < columns - 1; c++) {
      b.putLong(switch (c) {
        case 0 -> this == P1 ? trips.distance(id) : id;
        case 1 -> this == P3 ? trips.distance(id) : trips.amount(id);
        default -> trips.filler(id, c);
      });
    }
    return b.array();
  }

  /** {@code values} as order-preserving bytes: 8 per long, big-endian, sign bit flipped. */
  static byte[] encode(long... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * LONG);
    for (long v : values) {
      b.putLong(v ^ Long.MIN_VALUE);
    }
    return b.array();
  }
}
