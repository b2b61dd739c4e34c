package io.iam.core.iter;

/**
 * A view of {@code length} bytes of {@code array} from {@code offset}: an iterator's current value
 * without a copy ({@link InternalIterator#valueSlice()}). The bytes are the iterator's (a block it
 * reads, its own buffer): valid only until the iterator moves or closes, and never to be modified.
 */
public record Slice(byte[] array, int offset, int length) {

  public Slice {
    if (offset < 0 || length < 0 || offset + length > array.length) {
      throw new IndexOutOfBoundsException("slice [" + offset + ", " + (offset + length) + ") of " + array.length);
    }
  }

  /** The whole of {@code array}. */
  public static Slice of(byte[] array) {
    return new Slice(array, 0, array.length);
  }

  /** A copy of the bytes, which the caller owns. */
  public byte[] toArray() {
    return java.util.Arrays.copyOfRange(array, offset, offset + length);
  }
}
