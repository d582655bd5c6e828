FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY guts_backend ./guts_backend
COPY ledger ./ledger
COPY tables ./tables
COPY manage.py ./
RUN pip install --no-cache-dir .
EXPOSE 8000
CMD ["gunicorn", "guts_backend.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
