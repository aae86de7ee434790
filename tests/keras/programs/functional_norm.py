"""Functional model with Dropout, BatchNormalization, LayerNormalization, the AUC metric,
validation data and EarlyStopping."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(3)
rng = np.random.RandomState(3)
x = rng.randn(80, 5).astype('float32')
y = (x[:, 0] - x[:, 1] + 0.3 * rng.randn(80) > 0).astype('float32')
inputs = keras.Input((5,))
h = keras.layers.Dense(8, activation='relu')(inputs)
h = keras.layers.BatchNormalization()(h)
h = keras.layers.Dropout(0.25)(h)
h = keras.layers.LayerNormalization()(h)
outputs = keras.layers.Dense(1, activation='sigmoid')(h)
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.RMSprop(0.01), loss='binary_crossentropy',
              metrics=[keras.metrics.AUC(name='auc')])
stop = keras.callbacks.EarlyStopping(monitor='val_loss', patience=1, restore_best_weights=True)
history = model.fit(x[:64], y[:64], validation_data=(x[64:], y[64:]), epochs=6, batch_size=16,
                    callbacks=[stop], verbose=0)
print('epochs', len(history.history['loss']))
for key in sorted(history.history):
    print(key, history.history[key])
print('evaluate', model.evaluate(x[64:], y[64:], verbose=0))
