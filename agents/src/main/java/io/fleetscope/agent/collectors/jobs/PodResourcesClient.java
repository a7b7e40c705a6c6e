package io.fleetscope.agent.collectors.jobs;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The kubelet's pod-resources API ({@code v1.PodResourcesLister/List}) over its unix socket
 * (default {@code /var/lib/kubelet/pod-resources/kubelet.sock}). Messages travel as raw bytes and are
 * decoded by {@link PodResourcesParser}, so no generated protobuf classes are needed. One channel is
 * kept open across rounds; gRPC reconnects it when the kubelet restarts.
 */
public final class PodResourcesClient implements AutoCloseable {
  /** Full method name: package {@code v1}, service {@code PodResourcesLister}, method {@code List}. */
  public static final String LIST_METHOD = "v1.PodResourcesLister/List";

  /** Passes message bytes through unchanged. */
  public static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new IllegalStateException("reading a pod-resources reply failed: " + e.getMessage(), e);
      }
    }
  };

  public static final MethodDescriptor<byte[], byte[]> LIST = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName(LIST_METHOD)
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  private static final byte[] EMPTY_REQUEST = new byte[0];

  private final Path socket;
  private final ManagedChannel channel;

  public PodResourcesClient(Path socket) {
    this.socket = socket;
    this.channel = Grpc.newChannelBuilder("unix://" + socket.toAbsolutePath(), InsecureChannelCredentials.create())
        .maxInboundMessageSize(16 << 20) // the kubelet's own limit for this API
        .build();
  }

  /** One List call; the raw reply bytes. */
  public byte[] list(Duration deadline) throws IOException {
    if (!Files.exists(socket)) {
      throw new IOException("pod-resources socket " + socket + " does not exist (is this a Kubernetes node? set jobs.socket)");
    }
    try {
      return ClientCalls.blockingUnaryCall(channel, LIST, CallOptions.DEFAULT.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS), EMPTY_REQUEST);
    } catch (StatusRuntimeException e) {
      String d = e.getStatus().getDescription();
      throw new IOException("pod-resources List on " + socket + " failed: " + e.getStatus().getCode() + (d != null ? " " + d : ""));
    }
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    channel.awaitTermination(2, TimeUnit.SECONDS);
  }
}
