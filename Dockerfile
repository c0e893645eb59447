# fabriclab: JupyterLab with the Java (fabriclab) kernel, for Docker and for Binder (repo2docker builds this
# file: there is no binder/ folder, which would take precedence over it).
#   docker build -t fabriclab .
#   docker run --rm -p 8888:8888 fabriclab        (then open the http://127.0.0.1:8888/lab?token=... it prints)
# Binder's contract for a Dockerfile: a user with UID 1000 (build args NB_USER, NB_UID) whose HOME is
# writable, and `jupyter notebook`, JupyterLab and `jupyterhub-singleuser` on PATH. Binder starts its own
# command (`jupyterhub-singleuser`, or `jupyter notebook --ip 0.0.0.0 ...` under repo2docker), never CMD.
# One Jupyter environment serves both: the venv /opt/jupyter (it does not see Debian's Python packages),
# its versions pinned in docker/; the Java kernel is installed into that environment.
# bin/test-binder builds this file's filesystem from a local Debian base and checks the launch contract.

# Debian 12 as published on this date; the apt step below reads the Debian archive of the same day.
FROM debian:bookworm-20251229

ARG NB_USER=jovyan
ARG NB_UID=1000
# The Debian archive as it was at this moment (snapshot.debian.org): the JDK, Maven and Python are the same on
# every build. Empty: the base image's own sources (the newest packages of Debian 12).
ARG DEBIAN_SNAPSHOT=20251229T000000Z
ENV USER=${NB_USER} \
    NB_USER=${NB_USER} \
    NB_UID=${NB_UID} \
    HOME=/home/${NB_USER} \
    LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive

# JDK 17, Maven, Python 3.11 (for the venv only: no Jupyter from Debian), fonts for the charts.
RUN if [ -n "${DEBIAN_SNAPSHOT}" ]; then \
      rm -f /etc/apt/sources.list.d/debian.sources \
      && { echo "deb [check-valid-until=no] http://snapshot.debian.org/archive/debian/${DEBIAN_SNAPSHOT} bookworm main"; \
           echo "deb [check-valid-until=no] http://snapshot.debian.org/archive/debian/${DEBIAN_SNAPSHOT} bookworm-updates main"; \
           echo "deb [check-valid-until=no] http://snapshot.debian.org/archive/debian-security/${DEBIAN_SNAPSHOT} bookworm-security main"; \
         } > /etc/apt/sources.list; \
    fi \
 && apt-get update \
 && apt-get install -y --no-install-recommends \
      openjdk-17-jdk-headless maven \
      python3 python3-venv \
      fonts-dejavu-core fontconfig ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# The Jupyter environment: notebook, JupyterLab, jupyterhub (jupyterhub-singleuser), the widgets' front ends,
# nbclient/nbconvert for ./reproduce; the versions in docker/jupyter-requirements.txt and, for everything they
# pull in, docker/jupyter-constraints.txt.
COPY docker/jupyter-requirements.txt docker/jupyter-constraints.txt /tmp/jupyter/
RUN python3 -m venv /opt/jupyter \
 && /opt/jupyter/bin/pip install --no-cache-dir \
      -r /tmp/jupyter/jupyter-requirements.txt -c /tmp/jupyter/jupyter-constraints.txt \
 && /opt/jupyter/bin/pip check \
 && rm -rf /tmp/jupyter
# the scripts (bin/lab, ./reproduce) use this environment's Python too
ENV PATH=/opt/jupyter/bin:${PATH} \
    FABRICLAB_PYTHON=/opt/jupyter/bin/python

RUN useradd --create-home --uid ${NB_UID} --shell /bin/bash ${NB_USER}
COPY --chown=${NB_UID}:${NB_UID} . ${HOME}/fabriclab
USER ${NB_USER}
WORKDIR ${HOME}/fabriclab

# Build the kernel (-pl kernel -am: the optional Spark module and its 210 MB of jars stay out of the image).
RUN mvn -q package -DskipTests -pl kernel -am \
 && rm -rf ${HOME}/.m2/repository
# The kernelspec goes into the Jupyter environment's own data directory (/opt/jupyter/share/jupyter/kernels),
# with its class-data sharing archive (bin/install-kernel).
USER root
RUN bin/install-kernel /opt/jupyter/share/jupyter/kernels
USER ${NB_USER}
ENV FABRICLAB_HOME=${HOME}/fabriclab

EXPOSE 8888
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--notebook-dir=notebooks"]
