package io.iam.core.memtable;

import java.util.Objects;

/**
 * The answer of a point lookup at a snapshot: the newest version visible there was a value
 * ({@link Status#FOUND}), a tombstone ({@link Status#DELETED}), or there is no visible version
 * ({@link Status#ABSENT}, so older components must be consulted). Immutable; the value array is
 * shared with the memtable and must not be modified.
 */
public final class Lookup {

  /** What a lookup found. */
  public enum Status {
    FOUND,
    DELETED,
    ABSENT
  }

  /** No visible version. */
  public static final Lookup ABSENT = new Lookup(Status.ABSENT, -1, null);

  private final Status status;
  private final long sequence;
  private final byte[] value;

  private Lookup(Status status, long sequence, byte[] value) {
    this.status = status;
    this.sequence = sequence;
    this.value = value;
  }

  /** A value written at {@code sequence}. */
  public static Lookup found(long sequence, byte[] value) {
    return new Lookup(Status.FOUND, sequence, Objects.requireNonNull(value, "value"));
  }

  /** A tombstone written at {@code sequence}. */
  public static Lookup deleted(long sequence) {
    return new Lookup(Status.DELETED, sequence, null);
  }

  public Status status() {
    return status;
  }

  public boolean isFound() {
    return status == Status.FOUND;
  }

  public boolean isDeleted() {
    return status == Status.DELETED;
  }

  public boolean isAbsent() {
    return status == Status.ABSENT;
  }

  /** The sequence number of the version found (value or tombstone); -1 when absent. */
  public long sequence() {
    return sequence;
  }

  /**
   * The value (not a copy: do not modify).
   *
   * @throws IllegalStateException unless {@link #isFound()}
   */
  public byte[] value() {
    if (status != Status.FOUND) {
      throw new IllegalStateException("no value: " + status);
    }
    return value;
  }

  @Override
  public String toString() {
    return switch (status) {
      case FOUND -> "FOUND@" + sequence + "(" + value.length + " bytes)";
      case DELETED -> "DELETED@" + sequence;
      case ABSENT -> "ABSENT";
    };
  }
}
