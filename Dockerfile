FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY guts_backend ./guts_backend
COPY http_edge ./http_edge
COPY ledger ./ledger
COPY tables ./tables
COPY tournaments ./tournaments
COPY manage.py ./
RUN pip install --no-cache-dir .
EXPOSE 8000
# The web service as docker-compose.yml runs it (there: after migrate): ASGI, uvicorn workers.
CMD ["gunicorn", "guts_backend.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", \
     "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "30", "--graceful-timeout", "10", \
     "--keep-alive", "5", "--access-logfile", "-"]
