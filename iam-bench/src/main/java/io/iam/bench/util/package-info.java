/**
 * Small pieces the {@code iam} subcommands share: byte sizes for people and from the command line,
 * progress bars on stderr, one-line JSON, temporary directories, waiting for threads of one's own.
 */
package io.iam.bench.util;
