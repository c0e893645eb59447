# Sourced by the fabriclab scripts: project-local Jupyter directories (nothing goes to $HOME),
# and the Jupyter we use (Debian's, under /usr/bin, even when a pyenv python3 is first on PATH).
FABRICLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export FABRICLAB_ROOT
export JUPYTER_DATA_DIR="$FABRICLAB_ROOT/.jupyter/data"
export JUPYTER_CONFIG_DIR="$FABRICLAB_ROOT/.jupyter/config"
export JUPYTER_RUNTIME_DIR="$FABRICLAB_ROOT/.jupyter/runtime"
export JUPYTER_PLATFORM_DIRS=1
export JUPYTER_PATH="$JUPYTER_DATA_DIR"
export MPLCONFIGDIR="$FABRICLAB_ROOT/.jupyter/mpl"
FABRICLAB_PYTHON="${FABRICLAB_PYTHON:-/usr/bin/python3}"
[ -x "$FABRICLAB_PYTHON" ] || FABRICLAB_PYTHON="$(command -v python3 || true)"
export FABRICLAB_PYTHON
FABRICLAB_DEBIAN_PACKAGES="jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client python3-jupyter-kernel-test python3-ipykernel fonts-dejavu-core fontconfig"

# Checks that Jupyter is usable; installs Debian's packages when root with apt-get, else says what to install.
fabriclab_require_jupyter() {
  if "$FABRICLAB_PYTHON" -c 'import nbclient, nbconvert, jupyter_client, jupyter_kernel_test' 2>/dev/null; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "fabriclab: installing Jupyter from Debian packages: $FABRICLAB_DEBIAN_PACKAGES" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $FABRICLAB_DEBIAN_PACKAGES >/dev/null
    FABRICLAB_PYTHON=/usr/bin/python3
    "$FABRICLAB_PYTHON" -c 'import nbclient, nbconvert, jupyter_client, jupyter_kernel_test' && return 0
  fi
  echo "fabriclab: Jupyter is missing. Install it with:" >&2
  echo "  sudo apt-get install $FABRICLAB_DEBIAN_PACKAGES" >&2
  return 1
}
