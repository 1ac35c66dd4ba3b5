DROP TABLE deleted_learners;
