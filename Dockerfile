# A static mdxrender in an empty image: the binary and nothing else (no
# shell, no libc), run as an unprivileged user. Pure Go, so CGO_ENABLED=0
# gives a binary that needs nothing from the system.
#
#   docker build -t mdxrender --build-arg VERSION=$(git describe --always --dirty) .
#   docker run --rm -v "$PWD:/work" mdxrender batch -c configs/preview-map-repo.yaml
#
# scripts/container.sh builds the same image with buildah, from a binary
# built on the host (no Go image needed).
ARG GO_IMAGE=golang:1.26-bookworm

FROM ${GO_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The version goes in at link time: a build context has no usable .git.
ARG VERSION=
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.ldflagsVersion=${VERSION}" \
      -o /out/mdxrender ./cmd/mdxrender

FROM scratch
COPY --from=build /out/mdxrender /mdxrender
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/mdxrender"]
