package io.iam.core.key;

/** What an internal key records. The code is stored in the low byte of the key's trailer. */
public enum ValueType {
  /** A tombstone: the key was deleted at this sequence number. */
  DELETE(0),
  /** A value was written at this sequence number. */
  PUT(1);

  private final int code;

  ValueType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * @throws IllegalArgumentException for an unknown code (a corrupt key)
   */
  public static ValueType of(int code) {
    return switch (code) {
      case 0 -> DELETE;
      case 1 -> PUT;
      default -> throw new IllegalArgumentException("unknown value type " + code);
    };
  }
}
