"""fit with validation_split, class_weight and sample_weight; the callbacks ModelCheckpoint
(save_best_only, .weights.h5), ReduceLROnPlateau, LearningRateScheduler, CSVLogger, EarlyStopping
(restore_best_weights) and a LambdaCallback; an ExponentialDecay schedule; evaluate/predict on
tf.data."""
import csv
import os
import tempfile

import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(17)
rng = np.random.RandomState(17)
x = rng.randn(96, 6).astype('float32')
y = (x[:, 0] + 0.5 * x[:, 1] - x[:, 2] > 0.3).astype('int32')
weights = np.where(y == 1, 2.0, 1.0).astype('float32')


def make_model(learning_rate=0.05):
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation='relu'),
                              keras.layers.Dense(2, activation='softmax')])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate),
                  loss='sparse_categorical_crossentropy', metrics=['accuracy'])
    return model


folder = tempfile.mkdtemp()
log_path = os.path.join(folder, 'log.csv')
best_path = os.path.join(folder, 'best.weights.h5')
seen_lrs = []
model = make_model()
callbacks = [
    keras.callbacks.ModelCheckpoint(best_path, monitor='val_loss', save_best_only=True,
                                    save_weights_only=True),
    keras.callbacks.ReduceLROnPlateau(monitor='val_loss', factor=0.5, patience=1, min_lr=1e-3),
    keras.callbacks.CSVLogger(log_path),
    keras.callbacks.EarlyStopping(monitor='val_loss', patience=3, restore_best_weights=True),
    keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen_lrs.append(
            float(keras.ops.convert_to_numpy(model.optimizer.learning_rate)))),
]
history = model.fit(x, y, validation_split=0.25, epochs=8, batch_size=16, verbose=0,
                    class_weight={0: 1.0, 1: 3.0}, callbacks=callbacks)
print('epochs', len(history.history['loss']))
for key in sorted(history.history):
    print(key, np.round(history.history[key], 5).tolist())
print('lrs', np.round(seen_lrs, 6).tolist())
with open(log_path) as handle:
    rows = list(csv.reader(handle))
print('csv header', rows[0], 'rows', len(rows) - 1)
print('csv first', [round(float(v), 5) for v in rows[1]])
print('best file', os.path.exists(best_path))
restored = make_model()
restored.load_weights(best_path)
print('best val', np.round(restored.evaluate(x[72:], y[72:], verbose=0), 5).tolist())

schedule_model = make_model(keras.optimizers.schedules.ExponentialDecay(
    0.1, decay_steps=3, decay_rate=0.5, staircase=True))
scheduler = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr)
h = schedule_model.fit(x, y, sample_weight=weights, epochs=3, batch_size=32, verbose=0)
print('sample weighted', np.round(h.history['loss'], 5).tolist())
print('schedule lr', round(float(keras.ops.convert_to_numpy(
    schedule_model.optimizer.learning_rate)), 6), int(schedule_model.optimizer.iterations))

step_model = make_model()
decay = keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 if epoch < 1 else lr * 0.5)
h = step_model.fit(x, y, epochs=3, batch_size=32, verbose=0, callbacks=[decay],
                   validation_data=(x[:16], y[:16]))
print('scheduled', np.round(h.history['loss'], 5).tolist(), np.round(h.history['learning_rate'], 5).tolist())
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(20)
print('evaluate ds', np.round(step_model.evaluate(ds, verbose=0), 5).tolist())
print('predict ds', step_model.predict(ds, verbose=0).shape,
      np.round(step_model.predict(ds.take(1), verbose=0)[:2], 5).tolist())
print('predict_on_batch', np.round(step_model.predict_on_batch(x[:2]), 5).tolist())
print('train_on_batch', np.round(step_model.train_on_batch(x[:8], y[:8]), 5).tolist())
print('test_on_batch', np.round(step_model.test_on_batch(x[:8], y[:8]), 5).tolist())
